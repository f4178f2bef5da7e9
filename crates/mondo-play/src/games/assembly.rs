//! Pattern Assembly at the terminal: two players (and a host) at one terminal, or solo
//! practice. The grammar of its commands and its help; the words are
//! `narrate::assembly`'s. During a reveal the grid is drawn as text; when it is hidden
//! the screen (and its scrollback) is cleared.

pub mod bench;
mod logged;
mod rehearsal;

use crate::args::{TableArgs, check_limits, grid_size, seconds, seconds_or_zero};
use crate::grid::Reconstruction;
use crate::narrate::{Line, Names, assembly};
use crate::rules::assembly::{
    AssemblyEvent, AssemblyMove, AssemblySetup, AssemblyView, PhaseView, Settings, WrongShape,
};
use crate::rules::{Action, Actor, Event, EventKind};
use crate::runtime::{AnyAction, AnyEvent, AnySetup, AnyView, Common, events_of};
use crate::store::MatchId;
use crate::store::Store;
use crate::{Cast, Entered, GameFront, Picture, Request, Terminal};
use serde_json::json;

/// The help at the terminal: the block of docs/games/assembly.md under "At the terminal".
pub fn help() -> &'static str {
    crate::help_from_docs(include_str!("../../../../docs/games/assembly.md"))
}

/// A new match: `cast`'s players (one: solo practice), `seed`, `settings`.
pub fn assembly_setup(cast: &Cast, seed: u64, settings: Settings) -> AssemblySetup {
    AssemblySetup {
        players: cast.players().iter().map(|(id, _)| *id).collect(),
        seed,
        settings,
    }
}

/// Pattern Assembly at the terminal.
pub struct Front;

/// Pattern Assembly's own `mondo play` options.
#[derive(Debug, clap::Args)]
pub struct AssemblyArgs {
    /// Assembly: Pattern Assembly Plus (several targets a round, region showdown).
    #[arg(long)]
    pub plus: bool,
    /// Assembly: the grid's size, ROWSxCOLS (default 6x6; Plus 10x10; at most 26x20).
    #[arg(long, value_name = "ROWSxCOLS", value_parser = grid_size)]
    pub grid: Option<crate::grid::Dims>,
    /// Assembly: the number of rounds (default 20).
    #[arg(long)]
    pub rounds: Option<u8>,
    /// Assembly: targets per round (Plus only; default 3).
    #[arg(long)]
    pub targets: Option<u8>,
    /// Assembly: seconds an answer waits for its result (default 30).
    #[arg(long = "wait-secs", value_parser = seconds_or_zero)]
    pub wait_ms: Option<u64>,
    /// Assembly: what a wrong shape does in the original game: `waits` (the default:
    /// every answer waits, a wrong shape too) or `at-once` (the first rule). Plus always
    /// waits.
    #[arg(long = "wrong-shape", value_name = "waits|at-once")]
    pub wrong_shape: Option<WrongShape>,
    /// Assembly: seconds per round (default 180; Plus 300).
    #[arg(long = "round-secs", value_parser = seconds)]
    pub round_ms: Option<u64>,
    /// Assembly: seconds for the showdown (default 300; Plus 120).
    #[arg(long = "showdown-secs", value_parser = seconds)]
    pub showdown_ms: Option<u64>,
}

impl Terminal for Front {
    const NAME: &'static str = "assembly";
    const ABOUT: &'static str =
        "Pattern Assembly: a duel with --players A,B, else solo practice; --plus for Plus.";
    type Args = AssemblyArgs;
    type Commands = crate::commands::NoCommands;
    type Logged = logged::Log;
    type Bench = bench::AssemblyBench;

    fn front(cast: &Cast, _view: &AnyView) -> Box<dyn GameFront> {
        Box::new(AssemblyFront::new(cast))
    }

    fn help() -> &'static str {
        help()
    }

    /// The Pattern Assembly AI (`student::assembly`).
    fn ai(level: crate::student::Level, seed: u64) -> Option<Box<dyn crate::machine::SeatAi>> {
        let ai = crate::student::assembly::AssemblyAi::new(level, seed);
        Some(crate::machine::typed(ai, |v| match v {
            AnyView::Assembly(v) => Some(v),
            _ => None,
        }))
    }

    /// Original matches, or Plus ones.
    fn arena(plus: bool) -> Option<fn(usize, u64, bool) -> std::process::ExitCode> {
        Some(bench::arena(plus))
    }

    fn check(table: &TableArgs, own: &AssemblyArgs) -> Result<(), String> {
        let mine = [
            ("--wait-secs", own.wait_ms, &["wait_secs"][..]),
            ("--round-secs", own.round_ms, &["round_secs"][..]),
            ("--showdown-secs", own.showdown_ms, &["showdown_secs"][..]),
        ];
        let counts = [("--rounds", own.rounds.map(u64::from), "rounds")];
        check_limits("assembly", &table.durations(), &[])?;
        check_limits("assembly", &mine, &counts)
    }

    /// A duel with `--players`, else solo practice.
    async fn setup(
        table: &TableArgs,
        own: &AssemblyArgs,
        store: &Store,
        seed: u64,
    ) -> Result<(AnySetup, Cast), String> {
        let mut settings = if own.plus {
            if own.wrong_shape == Some(WrongShape::AtOnce) {
                return Err(
                    "--wrong-shape at-once is the original game's first rule: in Pattern \
                     Assembly Plus every answer waits"
                        .into(),
                );
            }
            Settings::plus(own.grid.unwrap_or(crate::grid::Dims { rows: 10, cols: 10 }))
        } else {
            if own.targets.is_some() {
                return Err("--targets is for Pattern Assembly Plus: add --plus".into());
            }
            Settings {
                dims: own.grid.unwrap_or(crate::grid::Dims::CLASSIC),
                wrong_shape_waits: own.wrong_shape.unwrap_or_default().waits(),
                ..Settings::original()
            }
        };
        if let Some(n) = own.rounds {
            settings.rounds = n;
            settings.reveal_after.retain(|&r| r < n);
        }
        if let Some(n) = own.targets {
            settings.targets = n;
        }
        let t = &mut settings.timing;
        t.reveal = table.reveal_ms.unwrap_or(t.reveal);
        t.wait = own.wait_ms.unwrap_or(t.wait);
        t.round = own.round_ms.unwrap_or(t.round);
        t.showdown = own.showdown_ms.unwrap_or(t.showdown);
        let cast = match table.players.as_slice() {
            [] => Cast::solo_as(store, table.player.as_deref()).await?,
            [a, b] => Cast::table(store, &[a, b], table.host()).await?,
            other => {
                return Err(format!(
                    "Pattern Assembly is for two players (--players alice,bob) or one alone \
                     (no --players); got {}",
                    other.len()
                ));
            }
        };
        let setup = assembly_setup(&cast, seed, settings);
        Ok((setup.into(), cast))
    }

    fn clocks(after: &crate::scoreboard::After, _names: &[String]) -> Vec<String> {
        use serde_json::Value;
        let v = after.spectator;
        let Some(ends) = v.get("ends_at").and_then(Value::as_u64) else {
            return Vec::new();
        };
        let what = match v
            .get("phase")
            .and_then(|p| p.get("phase"))
            .and_then(Value::as_str)
        {
            Some("reveal") => "grid shown:",
            Some("showdown") => "showdown clock:",
            _ => "round clock:",
        };
        vec![format!(
            "{what} {} left",
            crate::scoreboard::time(ends.saturating_sub(after.at))
        )]
    }

    fn scores(after: &crate::scoreboard::After, names: &[String]) -> Vec<String> {
        crate::scoreboard::by_seat(after, names, "scores", "points")
    }
}

/// What `help notation` says in Pattern Assembly.
const NOTATION: &str = "Pattern Assembly types cells, not structures: a cell is its row \
letter then its column number (`C3`), and a group is its cells joined by `-`, `,` or spaces, \
in any order (`answer C3-D3-D4`). `help` lists the commands, the showdown's among them.";

pub struct AssemblyFront {
    names: Names,
}

impl AssemblyFront {
    pub fn new(cast: &Cast) -> AssemblyFront {
        AssemblyFront {
            names: cast.names(),
        }
    }
}

fn view_of(view: &AnyView) -> Result<&AssemblyView, String> {
    match view {
        AnyView::Assembly(v) => Ok(v),
        _ => Err("this match is not Pattern Assembly".into()),
    }
}

/// Who a player's command is from: the named player, or the only one.
fn player(named: Option<Actor>, cast: &Cast, what: &str) -> Result<Actor, String> {
    match named {
        Some(actor) => Ok(actor),
        None if !cast.is_table() => Ok(Actor::Player(cast.me())),
        None => Err(format!(
            "say who {what}: start the line with a name, e.g. `{}: {what} ...`",
            cast.players().first().map_or("alice", |(_, n)| n.as_str())
        )),
    }
}

/// Who a host's command is from: the named host, or the table's.
fn host(named: Option<Actor>, cast: &Cast) -> Result<Actor, String> {
    match (named, cast.host()) {
        (Some(actor), _) => Ok(actor),
        (None, Some((id, _))) => Ok(Actor::Host(*id)),
        (None, None) => Err(crate::NO_HOST.into()),
    }
}

fn game(m: AssemblyMove) -> AnyAction {
    AnyAction::Assembly(Action::Move(m))
}

impl GameFront for AssemblyFront {
    fn notation(&self) -> String {
        NOTATION.to_string()
    }

    fn game_name(&self) -> &'static str {
        "assembly"
    }

    fn help(&self) -> &'static str {
        help()
    }

    fn opening(&mut self, id: MatchId, view: &AnyView, now: u64) -> Vec<Line> {
        let Ok(v) = view_of(view) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        // Resumed during a reveal: the grid again, for the time left.
        if let (Some(rows), PhaseView::Reveal { .. }) = (&v.grid, &v.phase) {
            if let Ok(grid) = crate::grid::Grid::parse(&rows.join("\n")) {
                let ms = v.ends_at.map_or(0, |at| at.saturating_sub(now));
                out.extend(assembly::event(
                    &self.names,
                    &AssemblyEvent::Revealed { grid, ms },
                    v.plus,
                ));
            }
        }
        if let PhaseView::Round { number } = v.phase {
            let asks = v.targets.iter().map(|t| t.ask.clone()).collect();
            out.extend(assembly::event(
                &self.names,
                &AssemblyEvent::RoundStarted { number, asks },
                v.plus,
            ));
        }
        out.push(self.status(id, view, now));
        out
    }

    fn command(&self, Entered(word, rest, named, view, cast): Entered) -> Request {
        let v = view_of(view)?;
        match word {
            "answer" => {
                let by = player(named, cast, "answers")?;
                let cells = v.dims.group(rest).map_err(|e| e.to_string())?;
                Ok((by, game(AssemblyMove::Answer { cells, sent: None })))
            }
            "showdown" => {
                let by = player(named, cast, "answers the showdown")?;
                let dims = match v.phase {
                    PhaseView::Showdown { region } => region.dims(),
                    _ => v.dims,
                };
                let grid = Reconstruction::parse(rest, dims, true).map_err(|e| e.to_string())?;
                Ok((by, game(AssemblyMove::Showdown { grid })))
            }
            "give" => Ok((
                player(named, cast, "resigns")?,
                AnyAction::Common(Common::Resign),
            )),
            "reveal" => Ok((host(named, cast)?, game(AssemblyMove::Rereveal))),
            "change" => Ok((host(named, cast)?, game(AssemblyMove::ChangeGrid))),
            "region" => {
                let region = crate::grid::Region::parse(rest, v.dims).map_err(|e| e.to_string())?;
                Ok((host(named, cast)?, game(AssemblyMove::SetRegion { region })))
            }
            other => Err(format!(
                "`{other}` is not a command here; the commands are: answer, showdown, resign, \
                 pause, resume, end, reveal, change, region, status, board, help, quit"
            )),
        }
    }

    fn tell(&mut self, events: &[AnyEvent], view: &AnyView) -> Vec<Line> {
        let plus = view_of(view).is_ok_and(|v| v.plus);
        let events: Vec<Event<AssemblyEvent>> = events_of(events);
        let mut out = Vec::new();
        for e in events {
            match e.kind {
                EventKind::Game(g) => out.extend(assembly::event(&self.names, &g, plus)),
                shared => out.extend(assembly::shared(&self.names, &shared)),
            }
        }
        out
    }

    fn status(&self, _id: MatchId, view: &AnyView, now: u64) -> Line {
        match view_of(view) {
            Ok(v) => assembly::status(&self.names, v, now),
            Err(e) => Line::new(json!({"event": "error", "message": e}), e),
        }
    }

    fn board(&self, view: &AnyView) -> Vec<Line> {
        match view_of(view).ok().and_then(|v| v.grid.clone()) {
            Some(rows) => vec![Line::new(
                json!({"event": "board", "grid": rows}),
                rows.join("\n"),
            )],
            None => vec![Line::new(
                json!({"event": "board", "grid": null}),
                "the grid is hidden: it is shown only during reveals",
            )],
        }
    }

    fn waiting(&self, _view: &AnyView) -> bool {
        // The umpire judges at once.
        false
    }

    fn is_over(&self, view: &AnyView) -> bool {
        view_of(view).is_ok_and(|v| matches!(v.phase, PhaseView::Over { .. }))
    }

    fn draws(&self) -> bool {
        false
    }

    fn new_pictures(&mut self, _id: MatchId, _view: &AnyView) -> Vec<Picture> {
        Vec::new()
    }

    fn board_picture(&self, _id: MatchId, _view: &AnyView) -> Result<Picture, String> {
        Err("Pattern Assembly draws its grid as text at the terminal (`board`)".into())
    }
}
