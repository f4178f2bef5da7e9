//! Pattern Assembly at the terminal: two players (and a host) at one terminal, or solo
//! practice. The grammar of its commands and its help; the words are
//! `narrate::assembly`'s. During a reveal the grid is drawn as text; when it is hidden
//! the screen (and its scrollback) is cleared.

use super::{Cast, GameFront, Picture, YOU};
use crate::grid::Reconstruction;
use crate::narrate::{Line, Names, assembly};
use crate::rules::assembly::{
    AssemblyEvent, AssemblyMove, AssemblySetup, AssemblyView, PhaseView, Settings,
};
use crate::rules::{Action, Actor, Event, EventKind};
use crate::runtime::{AnyAction, AnyEvent, AnyView, Common, events_of};
use crate::store::MatchId;
use serde_json::json;

/// The help at the terminal: the block of docs/games/assembly.md under "At the terminal".
pub fn help() -> &'static str {
    super::help_from_docs(include_str!("../../docs/games/assembly.md"))
}

/// A new match: `cast`'s players (one: solo practice), `seed`, `settings`.
pub fn assembly_setup(cast: &Cast, seed: u64, settings: Settings) -> AssemblySetup {
    AssemblySetup {
        players: cast.players().iter().map(|(id, _)| *id).collect(),
        seed,
        settings,
    }
}

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
        None if !cast.is_table() => Ok(Actor::Player(YOU)),
        None => Err(format!(
            "say who {what}: start the line with a name, e.g. `{}: {what} ...`",
            cast.players().first().map_or("alice", |(_, n)| n.as_str())
        )),
    }
}

/// Who a host's command is from: the named host, or the table's.
pub(super) fn host(named: Option<Actor>, cast: &Cast) -> Result<Actor, String> {
    match (named, cast.host()) {
        (Some(actor), _) => Ok(actor),
        (None, Some((id, _))) => Ok(Actor::Host(*id)),
        (None, None) => Err("there is no host at this table".into()),
    }
}

fn game(m: AssemblyMove) -> AnyAction {
    AnyAction::Assembly(Action::Move(m))
}

impl GameFront for AssemblyFront {
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

    fn command(
        &self,
        word: &str,
        rest: &str,
        named: Option<Actor>,
        view: &AnyView,
        cast: &Cast,
    ) -> Result<(Actor, AnyAction), String> {
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
            "resign" | "give" => Ok((
                player(named, cast, "resigns")?,
                AnyAction::Common(Common::Resign),
            )),
            "pause" => Ok((host(named, cast)?, AnyAction::Common(Common::Pause))),
            "resume" => Ok((host(named, cast)?, AnyAction::Common(Common::Resume))),
            "end" => Ok((host(named, cast)?, AnyAction::Common(Common::End))),
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

    fn new_pictures(&mut self, _id: MatchId, _view: &AnyView) -> Vec<Picture> {
        Vec::new()
    }

    fn board_picture(&self, _id: MatchId, _view: &AnyView) -> Result<Picture, String> {
        Err("Pattern Assembly draws its grid as text at the terminal (`board`)".into())
    }
}
