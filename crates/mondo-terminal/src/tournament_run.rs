//! `mondo tournament run --ai-fill`: a whole tournament of AI players, every level
//! in turn, played in virtual time (docs/tournaments.md). Each match is the game's
//! own rules with an AI in each seat (`student::arena`, as `mondo bench ai` plays
//! them), stored and rated like any match; the tournament is events in the store like
//! one made at the terminal. The matches of a round all start when it opens; each
//! result is reported at the moment its match ended on the game clock.

use super::kit::printable;
use super::ratings::Place;
use super::tournament_kit::{Loaded, Shape, act, load, ratings, standings_text};
use clap::Args;
use mondo_rules::rules::{Finish, Game, GameTypes, PlayerId, fair};
use mondo_rules::student::Level;
use mondo_rules::student::arena::{self, Mind};
use mondo_rules::tournament::{Act, Outcome, Tournament};
use mondo_store::{NewEvent, NewMatch, Store};
use serde::Serialize;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Fill every seat with an AI player (the levels in turn): what `run` plays.
    #[arg(long)]
    pub ai_fill: bool,
    /// How many players.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(2..=512))]
    pub players: u32,
    #[command(flatten)]
    pub shape: Shape,
    /// The tournament's name.
    #[arg(long, default_value = "AI Cup")]
    pub name: String,
    /// The last N seeds never come to their matches: each is forfeited at its
    /// round's deadline (the deadlines, played out on the game clock).
    #[arg(long, default_value_t = 0)]
    pub no_shows: u32,
    /// Draws every match's setup.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also write the standings page to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub place: Place,
}

/// A match of game `G` started, with its creating events; or why it cannot start.
pub type Started<G> = Result<(G, Vec<mondo_rules::rules::Event<<G as GameTypes>::Event>>), String>;

/// A game a tournament of AI players can play.
pub trait AiTournamentGame {
    type G: Game;
    /// A match of `players` (the higher seed first) drawn by `seed`, started at `now`,
    /// with the options after the game's name (`--plus`); its creating events.
    fn start(players: Vec<PlayerId>, seed: u64, options: &str, now: u64) -> Started<Self::G>;
    /// An AI of `level` for a seat.
    fn mind(level: Level, seed: u64) -> Mind<'static, Self::G>;
    /// Each seat's points in the game, when it keeps score.
    fn score(game: &Self::G) -> Option<[i64; 2]>;
}

/// The most moves and deadlines one match may take.
const STEPS: usize = 200_000;
/// The most times a bracket match is played again after draws before it is an error.
const REPLAYS: usize = 20;

/// An AI player's level, from its reserved name.
fn level_of(name: &str) -> Level {
    let k = fair::reserved_ai_name(name).map_or(0, |(l, _)| l);
    Level::ALL[k.min(Level::ALL.len() - 1)]
}

/// The options after a game's name.
fn options_of(game: &str) -> &str {
    game.trim().split_once(' ').map_or("", |(_, o)| o.trim())
}

/// The game and options of a round's stage.
fn game_of(t: &Tournament, stage: mondo_rules::tournament::Stage) -> &str {
    match (&t.settings.playoff_game, stage.is_bracket()) {
        (Some(g), true) => g,
        _ => &t.settings.game,
    }
}

pub async fn play<A: AiTournamentGame>(args: RunArgs) -> Result<ExitCode, String>
where
    <A::G as GameTypes>::Event: Serialize,
{
    let wall = Instant::now();
    let settings = args.shape.settings(0)?;
    // Each stage's options, checked before anything is stored.
    for game in std::iter::once(&settings.game).chain(&settings.playoff_game) {
        A::start(vec![PlayerId(1), PlayerId(2)], 0, options_of(game), 0)?;
    }
    let store = Store::connect(&args.place.db)
        .await
        .map_err(|e| e.to_string())?;
    super::ratings::rating_period(&store)?;
    let guild = args.place.guild;
    let start_clock = store.game_clock().await.map_err(|e| e.to_string())?;
    let mut now = start_clock;
    let host = PlayerId(
        store
            .local_player("host")
            .await
            .map_err(|e| e.to_string())?,
    );
    let first = Tournament::create(&args.name, host, settings, now).map_err(|e| e.to_string())?;
    let body = serde_json::to_string(&first).map_err(|e| e.to_string())?;
    let id = store
        .create_tournament(guild, args.name.trim(), now, &body)
        .await
        .map_err(|e| e.to_string())?;
    let mut l = load(&store, id).await?;
    for k in 0..args.players as usize {
        let name = super::tournament_kit::nth_ai_name(k);
        let p = PlayerId(
            store
                .local_ai_player(&name)
                .await
                .map_err(|e| e.to_string())?,
        );
        act(&store, &mut l, &Act::Join { player: p, name }, now).await?;
    }
    let seeds = ratings(&store, guild, &l.t, &[]).await?;
    act(
        &store,
        &mut l,
        &Act::Start {
            by: host,
            ratings: seeds,
            fill: Vec::new(),
        },
        now,
    )
    .await?;
    println!(
        "{}",
        printable(&format!(
            "tournament {id}: {}, {} AI players ({}), {}",
            l.t.name,
            args.players,
            Level::ALL.map(|l| l.name()).join(", "),
            l.t.settings.format
        ))
    );
    let mut matches = 0usize;
    let no_show_from = (args.players.saturating_sub(args.no_shows)) as usize;
    while l.t.finished.is_none() {
        let Some(round) = l.t.open_round().cloned() else {
            return Err("the tournament stopped with no round open".into());
        };
        let options = game_of(&l.t, round.stage).to_string();
        let options = options
            .split_once(' ')
            .map_or("", |(_, o)| o)
            .trim()
            .to_string();
        // Every match of the round starts as it opens; results come as they end.
        let mut done: Vec<(u64, usize, Vec<Act>)> = Vec::new();
        for (k, table) in round.tables.iter().enumerate() {
            let Some(b) = table.b.filter(|_| table.decided.is_none()) else {
                continue;
            };
            let seats = [table.a, b];
            // A no-show's match is not played: the deadline forfeits it.
            if seats.iter().any(|&s| s >= no_show_from) {
                continue;
            }
            let (mut at, mut wins, mut acts) = (round.opened_at, [0, 0], Vec::new());
            let need = if round.stage.is_bracket() {
                usize::from(l.t.settings.best_of) / 2 + 1
            } else {
                1
            };
            for n in 0..REPLAYS {
                let seed = args
                    .seed
                    .wrapping_mul(1_000_003)
                    .wrapping_add(u64::from(round.number) * 10_007 + k as u64 * 101 + n as u64);
                let (result, score, match_id, end) =
                    one_match::<A>(&store, guild, &l, seats, seed, &options, at).await?;
                matches += 1;
                at = end;
                if let Outcome::Win { winner } = &result {
                    wins[usize::from(*winner != l.t.seats[seats[0]].player)] += 1;
                }
                let decided = !round.stage.is_bracket() || wins.iter().any(|w| *w >= need);
                acts.push(Act::Report {
                    round: round.number,
                    table: k,
                    result,
                    score,
                    match_id: Some(match_id),
                });
                if decided {
                    break;
                }
            }
            done.push((at, k, acts));
        }
        done.sort_by_key(|(at, k, _)| (*at, *k));
        for (at, _, acts) in done {
            now = now.max(at);
            for a in acts {
                act(&store, &mut l, &a, now).await?;
            }
        }
        // The round's deadline: whoever did not come forfeits.
        if l.t.open_round().is_some_and(|r| r.number == round.number) {
            now = now.max(round.deadline);
            let showed = (0..no_show_from).map(|s| l.t.seats[s].player).collect();
            act(&store, &mut l, &Act::Deadline { showed }, now).await?;
        }
        if l.t.open_round().is_some_and(|r| r.number == round.number) {
            return Err(format!(
                "round {}: a match ended drawn {REPLAYS} times and nothing decides it",
                round.number
            ));
        }
        let r = l.t.rounds.iter().find(|r| r.number == round.number);
        println!(
            "round {} ({}): {} matches",
            round.number,
            round.stage.name(),
            r.map_or(0, |r| r.tables.iter().filter(|t| t.b.is_some()).count())
        );
    }
    for line in standings_text(&l.t).into_iter().take(11) {
        println!("{}", printable(&line));
    }
    if let Some(file) = &args.html {
        std::fs::write(file, super::tournament_page::page(id, &l.t))
            .map_err(|e| format!("{}: {e}", file.display()))?;
        println!("{}", printable(&format!("wrote {}", file.display())));
    }
    store.close().await;
    println!(
        "{matches} matches in {:.1} h of game time; {:.1} s; peak {} MB. `mondo tournament \
         standings {id} --db {}` shows it all.",
        (now - start_clock) as f64 / 3_600_000.0,
        wall.elapsed().as_secs_f64(),
        mondo_play::bench::ai::peak_mb(),
        args.place.db
    );
    Ok(ExitCode::SUCCESS)
}

/// Plays one match of the seats (the higher seed first) from `at`, stores it and
/// rates it as any finished match; its result, score, id and end.
async fn one_match<A: AiTournamentGame>(
    store: &Store,
    guild: Option<u64>,
    l: &Loaded,
    seats: [usize; 2],
    seed: u64,
    options: &str,
    at: u64,
) -> Result<(Outcome, Option<[i64; 2]>, i64, u64), String>
where
    <A::G as GameTypes>::Event: Serialize,
{
    let players: Vec<PlayerId> = seats.iter().map(|&s| l.t.seats[s].player).collect();
    let (game, created) = A::start(players.clone(), seed, options, at)?;
    let minds = seats
        .iter()
        .enumerate()
        .map(|(k, &s)| {
            A::mind(
                level_of(&l.t.seats[s].name),
                seed.wrapping_mul(2) + k as u64,
            )
        })
        .collect();
    let clock = Instant::now();
    let mut tick = move || clock.elapsed().as_nanos() as u64;
    let played = arena::play(game, minds, at, STEPS, &mut tick).map_err(|e| e.to_string())?;
    let rows = |events: &[mondo_rules::rules::Event<<A::G as GameTypes>::Event>]| {
        events
            .iter()
            .map(|e| {
                Ok(NewEvent {
                    at: e.at,
                    body: serde_json::to_string(e).map_err(|e| e.to_string())?,
                })
            })
            .collect::<Result<Vec<_>, String>>()
    };
    let g = &played.game;
    let ids: Vec<u64> = players.iter().map(|p| p.0).collect();
    let settings = g.listed_settings().to_string();
    let first = rows(&created)?;
    let id = store
        .create_match_with(
            &NewMatch {
                kind: <A::G as GameTypes>::KIND.name(),
                guild,
                channel: None,
                seed: g.seed(),
                settings: &settings,
                players: &ids,
            },
            &first,
        )
        .await
        .map_err(|e| e.to_string())?;
    store
        .append_ending(
            id,
            first.len() as u64,
            rows(&played.events)?,
            g.is_over(),
            g.finish(),
        )
        .await
        .map_err(|e| e.to_string())?;
    let end = played.events.last().map_or(at, |e| e.at);
    let result = match g.finish() {
        Some(Finish::Placed { places, .. }) => {
            let place = |p: PlayerId| places.iter().find(|(q, _)| *q == p).map(|(_, n)| *n);
            match (place(players[0]), place(players[1])) {
                (Some(a), Some(b)) if a < b => Outcome::Win { winner: players[0] },
                (Some(a), Some(b)) if b < a => Outcome::Win { winner: players[1] },
                _ => Outcome::Draw,
            }
        }
        // A match that ends without a rated result counts as drawn.
        _ => Outcome::Draw,
    };
    Ok((result, A::score(g), id.0, end))
}
