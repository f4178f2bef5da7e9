//! Logical Bluffs at the terminal: two players (and a host) at one terminal. The
//! grammar of its commands and its help; the words are `narrate::bluffs`'s.
//!
//! Both players share the screen, so the session follows the match as each player
//! too ([`GameFront::private`]): what only one player may know (their tiles, RP,
//! truths, marks, reveals, guesses) is printed only as lines addressed to them (JSON
//! `"to": NAME`, text `(to NAME only) ...`). Everything else is what a spectator sees.

use crate::args::{TableArgs, check_limits, seconds, seconds_or_zero};
use crate::lang::tiles::{Cell, Layout};
use crate::narrate::{Line, Names, bluffs};
use crate::rules::bluffs::{
    BluffsView, EventKind as BluffsEvent, Move, PhaseName, Settings, Setup,
};
use crate::rules::{Action, Actor, Event, EventKind, PlayerId, Seat};
use crate::runtime::{AnyAction, AnyEvent, AnySetup, AnyView, events_of, game_events_of};
use crate::store::MatchId;
use crate::store::Store;
use crate::{Cast, Entered, GameFront, Picture, Request, Terminal};
use serde_json::json;

pub mod bench;
mod check;
mod logged;
mod rehearsal;

/// The help at the terminal: the block of docs/games/bluffs.md under "At the terminal".
pub fn help() -> &'static str {
    crate::help_from_docs(include_str!("../../../../docs/games/bluffs.md"))
}

/// A new match between `cast`'s two players.
pub fn bluffs_setup(cast: &Cast, seed: u64, settings: Settings) -> Result<Setup, String> {
    let [a, b] = cast.players() else {
        return Err(format!(
            "Logical Bluffs is for two players, e.g. --players alice,bob (got {})",
            cast.players().len()
        ));
    };
    Ok(Setup {
        players: [a.0, b.0],
        seed,
        settings,
    })
}

/// Logical Bluffs at the terminal.
pub struct Front;

/// Logical Bluffs' own `mondo play` options (`--reveal-secs` sets its Reveal phase).
#[derive(Debug, clap::Args)]
pub struct BluffsArgs {
    /// Bluffs: seconds of the Bluffing phase (default 180).
    #[arg(long = "bluff-secs", value_parser = seconds)]
    pub bluff_ms: Option<u64>,
    /// Bluffs: seconds of the Claiming phase (default 90).
    #[arg(long = "claim-secs", value_parser = seconds)]
    pub claim_ms: Option<u64>,
    /// Bluffs: seconds added to Reveal for a player who declares a layout guess
    /// (default 150).
    #[arg(long = "guess-secs", value_parser = seconds_or_zero)]
    pub guess_ms: Option<u64>,
    /// Bluffs: seconds of reserve time each, for overruns in Bluffing and Claiming
    /// (default 300).
    #[arg(long = "reserve-secs", value_parser = seconds_or_zero)]
    pub reserve_ms: Option<u64>,
    /// Bluffs: tiles each player knows at the start (default 4; at most 8).
    #[arg(long = "known-tiles")]
    pub known_tiles: Option<usize>,
    /// Bluffs: RP a tile reveal costs (default 8).
    #[arg(long = "reveal-cost")]
    pub reveal_cost: Option<u32>,
}

impl Terminal for Front {
    const NAME: &'static str = "bluffs";
    const ABOUT: &'static str =
        "Logical Bluffs: statements about a hidden 4 x 4 layout (needs --players A,B).";
    type Args = BluffsArgs;
    type Commands = check::BluffsCommands;
    type Logged = logged::Log;
    type Bench = bench::BluffsBench;

    fn front(cast: &Cast, _view: &AnyView) -> Box<dyn GameFront> {
        Box::new(BluffsFront::new(cast))
    }

    fn help() -> &'static str {
        help()
    }

    fn ai(level: crate::student::Level, seed: u64) -> Option<Box<dyn crate::machine::SeatAi>> {
        // The match's own settings come with every view it is asked on.
        let ai = crate::student::bluffs::BluffsAi::new(level, &Default::default(), seed);
        Some(crate::machine::typed(ai, |v| match v {
            AnyView::Bluffs(v) => Some(v),
            _ => None,
        }))
    }

    /// Matches with the default settings (it has no Plus).
    fn arena(plus: bool) -> Option<fn(usize, u64, bool) -> std::process::ExitCode> {
        (!plus).then(bench::arena)
    }

    fn check(table: &TableArgs, own: &BluffsArgs) -> Result<(), String> {
        let mine = [
            ("--bluff-secs", own.bluff_ms, &["bluff_secs"][..]),
            ("--claim-secs", own.claim_ms, &["claim_secs"][..]),
            ("--guess-secs", own.guess_ms, &["guess_secs"][..]),
            ("--reserve-secs", own.reserve_ms, &["reserve_secs"][..]),
        ];
        let counts = [
            (
                "--known-tiles",
                own.known_tiles.map(|n| n as u64),
                "known_tiles",
            ),
            (
                "--reveal-cost",
                own.reveal_cost.map(u64::from),
                "reveal_cost",
            ),
        ];
        check_limits("bluffs", &table.durations(), &[])?;
        check_limits("bluffs", &mine, &counts)
    }

    /// A match between `--players A,B`, with its durations and costs.
    async fn setup(
        table: &TableArgs,
        own: &BluffsArgs,
        store: &Store,
        seed: u64,
    ) -> Result<(AnySetup, Cast), String> {
        let [a, b] = table.players.as_slice() else {
            return Err(format!(
                "Logical Bluffs needs exactly two players, e.g. --players alice,bob (got {})",
                table.players.len()
            ));
        };
        let d = Settings::default();
        let settings = Settings {
            bluffing_ms: own.bluff_ms.unwrap_or(d.bluffing_ms),
            claiming_ms: own.claim_ms.unwrap_or(d.claiming_ms),
            reveal_ms: table.reveal_ms.unwrap_or(d.reveal_ms),
            guess_extra_ms: own.guess_ms.unwrap_or(d.guess_extra_ms),
            reserve_ms: own.reserve_ms.unwrap_or(d.reserve_ms),
            known_tiles: own.known_tiles.unwrap_or(d.known_tiles),
            reveal_cost: own.reveal_cost.unwrap_or(d.reveal_cost),
            ..d
        };
        let cast = Cast::table(store, &[a, b], table.host()).await?;
        let setup = bluffs_setup(&cast, seed, settings)?;
        Ok((setup.into(), cast))
    }

    fn clocks(after: &crate::scoreboard::After, names: &[String]) -> Vec<String> {
        use serde_json::Value;
        let v = after.spectator;
        let mut out = Vec::new();
        let phase = v.get("phase").and_then(Value::as_str).unwrap_or("");
        let deadline = after
            .players
            .iter()
            .find_map(|p| p.get("mine")?.get("deadline")?.as_u64());
        if let Some(deadline) = deadline
            && phase != "over"
        {
            out.push(format!(
                "{} clock (round {}): {} left",
                phase.replace('_', " "),
                v.get("round").and_then(Value::as_u64).unwrap_or(0),
                crate::scoreboard::time(deadline.saturating_sub(after.at))
            ));
        }
        for (name, p) in names.iter().zip(after.players) {
            if let Some(ms) = p
                .get("mine")
                .and_then(|m| m.get("reserve"))
                .and_then(Value::as_u64)
            {
                out.push(format!(
                    "{name}'s reserve: {} left",
                    crate::scoreboard::time(ms)
                ));
            }
        }
        out
    }

    fn scores(after: &crate::scoreboard::After, names: &[String]) -> Vec<String> {
        let each: Vec<String> = names
            .iter()
            .zip(after.players)
            .filter_map(|(n, p)| {
                let rp = p.get("mine")?.get("rp")?.as_u64()?;
                Some(format!("{n} {rp}"))
            })
            .collect();
        if each.is_empty() {
            Vec::new()
        } else {
            vec![format!("RP: {}", each.join(", "))]
        }
    }
}

pub struct BluffsFront {
    names: Names,
}

impl BluffsFront {
    pub fn new(cast: &Cast) -> BluffsFront {
        BluffsFront {
            names: cast.names(),
        }
    }
}

fn view_of(view: &AnyView) -> Result<&BluffsView, String> {
    match view {
        AnyView::Bluffs(v) => Ok(v),
        _ => Err("this match is not Logical Bluffs".into()),
    }
}

fn own(events: &[AnyEvent]) -> Vec<BluffsEvent> {
    game_events_of(events)
}

/// The shared events (pause, resume, downtime), said to all.
fn shared(names: &Names, events: &[AnyEvent]) -> Vec<Line> {
    let events: Vec<Event<BluffsEvent>> = events_of(events);
    events
        .into_iter()
        .filter_map(|e| match e.kind {
            EventKind::Paused { by } => Some(Line::new(
                json!({"event": "paused", "by": names.person(by)}),
                format!("{} paused the match: every clock stops.", names.person(by)),
            )),
            EventKind::Resumed { by } => Some(Line::new(
                json!({"event": "resumed", "by": names.person(by)}),
                format!("{} resumed the match.", names.person(by)),
            )),
            EventKind::ClockRebased { from, to } => Some(Line::new(
                json!({"event": "clock_rebased", "from": from, "to": to}),
                "the umpire was down: that time is not counted.",
            )),
            EventKind::SetupChosen { by } => Some(crate::narrate::setup_chosen(names, by)),
            EventKind::Game(_) => None,
        })
        .collect()
}

/// Who a player's command is from: the named player (a table always names them).
fn player(named: Option<Actor>, cast: &Cast, what: &str) -> Result<Actor, String> {
    match named {
        Some(actor @ Actor::Player(_)) => Ok(actor),
        Some(_) => Err(format!("only a player can {what}")),
        None => Err(format!(
            "say who {what}: start the line with a name, e.g. `{}: {what} ...`",
            cast.players().first().map_or("alice", |(_, n)| n.as_str())
        )),
    }
}

fn game(m: Move) -> AnyAction {
    AnyAction::Bluffs(Action::Move(m))
}

/// `SUBSET; S1; S2; S3; S4 [; nolimit] [; smoke N]`.
pub fn parse_bluff(rest: &str) -> Result<Move, String> {
    let mut parts = rest.split(';').map(str::trim).filter(|p| !p.is_empty());
    let Some(subset) = parts.next() else {
        return Err(
            "give a subset and four statements: `bluff A1-A2-B1-B2; S1; S2; S3; S4`".into(),
        );
    };
    let mut statements = Vec::new();
    let mut no_limit = false;
    let mut smokescreen = None;
    for part in parts {
        let lower = part.to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        match words.as_slice() {
            ["nolimit"] | ["no", "limit"] => no_limit = true,
            ["smoke" | "smokescreen", n] => {
                smokescreen = Some(n.parse::<usize>().map_err(|_| {
                    format!("`{part}`: smoke takes a statement number, 1 to 4 (`smoke 2`)")
                })?);
            }
            _ => statements.push(part.to_string()),
        }
    }
    if statements.len() != 4 {
        return Err(format!(
            "a bluff has four statements after the subset, split by `;`; you gave {}",
            statements.len()
        ));
    }
    Ok(Move::Bluff {
        subset: subset.to_string(),
        statements,
        no_limit,
        smokescreen,
    })
}

/// `T F - T`: a mark per opposing statement.
pub fn parse_marks(rest: &str) -> Result<Vec<Option<bool>>, String> {
    rest.split([' ', ',', '\t'])
        .filter(|w| !w.is_empty())
        .map(|w| match w.to_ascii_lowercase().as_str() {
            "t" | "true" | "y" | "yes" => Ok(Some(true)),
            "f" | "false" | "n" | "no" => Ok(Some(false)),
            "-" | "_" | "skip" => Ok(None),
            _ => Err(format!(
                "`{w}` is not a mark: write T (true), F (false) or - (smokescreened or detected), one per opposing statement"
            )),
        })
        .collect()
}

/// `B2,C3` or `B2 C3`.
pub fn parse_cells(rest: &str) -> Result<Vec<Cell>, String> {
    let cells: Vec<Cell> = rest
        .split([',', ' ', '-', '\t'])
        .filter(|w| !w.is_empty())
        .map(|w| w.parse::<Cell>().map_err(|e| e.0))
        .collect::<Result<_, _>>()?;
    if cells.is_empty() {
        return Err("name the tiles to reveal, e.g. `reveal B2,C3`".into());
    }
    Ok(cells)
}

impl BluffsFront {
    fn seat_of(&self, view: &BluffsView, id: PlayerId) -> Option<Seat> {
        view.players
            .iter()
            .position(|p| *p == id)
            .map(|i| Seat(i as u8))
    }
}

impl GameFront for BluffsFront {
    fn game_name(&self) -> &'static str {
        "bluffs"
    }

    fn help(&self) -> &'static str {
        help()
    }

    fn notation(&self) -> String {
        "Logical Bluffs has no structures: statements are words about tiles (`help words`), \
         and cells are written like `B2` (`reveal B2,C3`), a layout row by row \
         (`guess RBGY/YYGR/BRRG/GBYB`). `help` lists the \
         commands."
            .to_string()
    }

    fn words(&self) -> String {
        crate::lang::tiles::vocabulary_text()
    }

    fn opening(&mut self, id: MatchId, view: &AnyView, now: u64) -> Vec<Line> {
        let mut out = Vec::new();
        if let Ok(v) = view_of(view) {
            out.extend(
                bluffs::board(&self.names, v)
                    .into_iter()
                    .filter(|_| v.phase != PhaseName::Bluffing || v.public.layout.is_some()),
            );
        }
        out.push(self.status(id, view, now));
        out
    }

    fn command(&self, Entered(word, rest, named, _view, cast): Entered) -> Request {
        let m = match word {
            "bluff" => parse_bluff(rest)?,
            "claim" => Move::Claim {
                marks: parse_marks(rest)?,
            },
            "detective" => Move::Detect {
                statement: rest.trim().parse().map_err(|_| {
                    format!("`{rest}`: detective takes an opposing statement's number, 1 to 4")
                })?,
            },
            "reveal" => Move::Reveal {
                tiles: parse_cells(rest)?,
            },
            "declare" => Move::DeclareGuess,
            "guess" => Move::Guess {
                layout: rest.parse::<Layout>().map_err(|e| e.0)?,
            },
            "pass" => Move::Pass,
            other => {
                return Err(format!(
                    "`{other}` is not a command here; the commands are: bluff, claim, detective, \
                     reveal, declare, guess, pass, resign, pause, resume, end, status, board, \
                     help, quit"
                ));
            }
        };
        Ok((player(named, cast, word)?, game(m)))
    }

    fn tell(&mut self, events: &[AnyEvent], view: &AnyView) -> Vec<Line> {
        let mut out = shared(&self.names, events);
        if let Ok(v) = view_of(view) {
            out.extend(bluffs::public(&self.names, &v.settings, &own(events)));
        }
        out
    }

    fn status(&self, _id: MatchId, view: &AnyView, now: u64) -> Line {
        match view_of(view) {
            Ok(v) => bluffs::status(&self.names, v, now),
            Err(e) => Line::new(json!({"event": "error", "message": e}), e),
        }
    }

    fn board(&self, view: &AnyView) -> Vec<Line> {
        match view_of(view) {
            Ok(v) => bluffs::board(&self.names, v),
            Err(e) => vec![Line::new(json!({"event": "error", "message": e}), e)],
        }
    }

    fn waiting(&self, _view: &AnyView) -> bool {
        // The umpire checks at once.
        false
    }

    fn is_over(&self, view: &AnyView) -> bool {
        view_of(view).is_ok_and(|v| v.public.outcome.is_some())
    }

    fn draws(&self) -> bool {
        false
    }

    fn new_pictures(&mut self, _id: MatchId, _view: &AnyView) -> Vec<Picture> {
        Vec::new()
    }

    fn board_picture(&self, _id: MatchId, _view: &AnyView) -> Result<Picture, String> {
        Err("Logical Bluffs draws its board as text at the terminal (`NAME: board`)".into())
    }

    fn private(&self) -> bool {
        true
    }

    fn tell_private(&mut self, id: PlayerId, events: &[AnyEvent], view: &AnyView) -> Vec<Line> {
        let Ok(v) = view_of(view) else {
            return Vec::new();
        };
        let Some(seat) = self.seat_of(v, id) else {
            return Vec::new();
        };
        let own = own(events);
        let mut out = bluffs::only(&self.names, &v.settings, seat, &own);
        // What changes a player's RP or tiles: their whole state again, to them.
        let changed = own.iter().any(BluffsEvent::changes_own_state);
        if changed && let Some(mine) = &v.mine {
            out.push(bluffs::mine(&self.names, seat, mine));
        }
        out
    }

    fn mine(&self, id: PlayerId, view: &AnyView) -> Vec<Line> {
        let Ok(v) = view_of(view) else {
            return Vec::new();
        };
        match (self.seat_of(v, id), &v.mine) {
            (Some(seat), Some(mine)) => vec![bluffs::mine(&self.names, seat, mine)],
            _ => Vec::new(),
        }
    }
}
