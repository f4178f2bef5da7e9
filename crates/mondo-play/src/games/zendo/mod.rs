//! Zendo at the terminal, one file per mode: [`duel`], [`practice`], [`triple`],
//! [`classic`]. Here is what the modes share: the front of the Duel and practice
//! ([`ZendoFront`]), the one-pattern table as lines and pictures, where a hidden
//! pattern comes from; the words are `narrate::zendo`'s.

pub mod ai_seat;
pub mod classic;
pub mod duel;
pub mod logged;
pub mod practice;
pub mod rehearsal;
pub mod triple;

pub use crate::rules::zendo::opening::Source;

use crate::args::TableArgs;
use crate::finder::Limits;
use crate::koan::PieceSet;
use crate::narrate::zendo::{Narrator, board_json, duel_status, entry_line, practice_status};
use crate::narrate::{Front, Line};
use crate::pool::Pool;
use crate::render::{self, BoardEntry, Mark};
use crate::rules::zendo::{
    GuessView, Opening, PhaseView, PracticeStep, Settings, StepView, TableEntry, ZendoMove, opening,
};
use crate::rules::{Actor, PlayerId};
use crate::runtime::{AnyAction, AnyEvent, AnyView, Common, events_of};
use crate::store::MatchId;
use crate::{Cast, Entered, GameFront, Picture, Request};
use serde_json::json;

/// A one-pattern game's settings from the command line (`--set`, `--style`).
fn zendo_settings(table: &TableArgs) -> Settings {
    Settings {
        set: table.set.unwrap_or_default(),
        style: table.style.unwrap_or_default(),
    }
}

/// The pool a one-pattern game draws its hidden pattern from: `--pool`, or the shipped
/// pool of `set`; none with `--pattern` or `--generate`.
fn pool_for(table: &TableArgs, set: PieceSet) -> Result<Option<Pool>, String> {
    if table.pattern.len() > 1 {
        return Err("--pattern is given once (three times only for `mondo play triple`)".into());
    }
    if table.pattern.is_empty() && !table.generate {
        table.pool_or_shipped(set).map(Some)
    } else {
        Ok(None)
    }
}

/// Where a one-pattern game's hidden pattern comes from: `--pattern`, `--generate`,
/// or the pool.
fn source<'a>(table: &'a TableArgs, pool: &'a Option<Pool>) -> Source<'a> {
    match (table.pattern.first(), pool) {
        (Some(p), _) => Source::Pattern(p),
        (None, Some(pool)) => Source::Pool(pool),
        (None, None) => Source::Generated,
    }
}

/// The opening of a new match, said as the terminal says errors.
fn open_with(source: Source<'_>, set: PieceSet, seed: u64) -> Result<Opening, String> {
    opening(source, set, seed, &Limits::default()).map_err(|e| e.to_string())
}

/// Who has the advantage (chooses who starts) at a two-player table: the player named
/// (`--advantage`), by default the second, the one challenged.
pub(crate) fn advantage_of(cast: &Cast, name: Option<&str>) -> Result<PlayerId, String> {
    let [_, (b, bname)] = cast.players() else {
        return Err("two players are needed: --players alice,bob".into());
    };
    match name {
        None => Ok(*b),
        Some(name) => match cast.actor(name) {
            Some(Actor::Player(id)) => Ok(id),
            _ => Err(format!(
                "the advantage goes to one of the players, not `{name}` (e.g. --advantage \
                 {bname})"
            )),
        },
    }
}

/// A mode's words read into an action (the duel's, practice's): the word, the rest of
/// the line, who said it, the match's view, the cast, the narrator.
pub type Grammar =
    fn(&str, &str, Option<Actor>, &AnyView, &Cast, &Narrator) -> Result<(Actor, AnyAction), String>;

/// The moves every Zendo mode means the same way, as typed: `confirm`, `take back`,
/// `end turn`, `start NAME` (who starts) and a host's `disallow`; None for any other
/// word. Who makes it: the one named, else the host for `disallow`, else `player`'s
/// answer (the mode's: whose turn it is, or who chooses who starts).
pub(crate) fn shared_command(
    (word, rest): (&str, &str),
    named: Option<Actor>,
    cast: &Cast,
    player: &dyn Fn(&ZendoMove) -> Result<Actor, String>,
) -> Option<Result<(Actor, ZendoMove), String>> {
    let m = match (word, rest) {
        ("confirm", _) => ZendoMove::Confirm,
        ("take", "back") | ("takeback", _) => ZendoMove::TakeBack,
        ("end", "turn") | ("endturn", _) => ZendoMove::EndTurn,
        ("disallow", _) => ZendoMove::Disallow,
        ("start", "") => return Some(Err("say who starts: e.g. `start alice`".into())),
        ("start", name) => match cast.actor(name) {
            Some(Actor::Player(starter)) => ZendoMove::ChooseStarter { starter },
            _ => {
                return Some(Err(format!(
                    "`{name}` does not play here; start one of the players"
                )));
            }
        },
        _ => return None,
    };
    let actor = match (named, m) {
        (Some(actor), _) => Ok(actor),
        (None, ZendoMove::Disallow) => cast.host_actor(),
        (None, m) => player(&m),
    };
    Some(actor.map(|a| (a, m)))
}

/// Why practice refuses pause and resume.
pub const NO_CLOCK: &str = "practice has no clock";

/// The Zendo front of one match (a duel or practice): the family's words, with the
/// mode's own grammar and help, which each mode's file gives.
pub struct ZendoFront {
    narrator: Narrator,
    /// Table entries already drawn (`--png`).
    drawn: usize,
    help: &'static str,
    grammar: Grammar,
}

impl ZendoFront {
    pub fn new(cast: &Cast, view: &AnyView, help: &'static str, grammar: Grammar) -> ZendoFront {
        let narrator = match view {
            AnyView::ZendoDuel(v) => Narrator::duel(cast.names(), v),
            _ => Narrator::new(cast.names()),
        };
        ZendoFront {
            narrator,
            drawn: 0,
            help,
            grammar,
        }
    }
}

/// The table of either game.
fn table(view: &AnyView) -> &[TableEntry] {
    match view {
        AnyView::ZendoDuel(v) => &v.table,
        AnyView::ZendoPractice(v) => &v.table,
        _ => &[],
    }
}

fn guesses(view: &AnyView) -> &[GuessView] {
    match view {
        AnyView::ZendoDuel(v) => &v.guesses,
        AnyView::ZendoPractice(v) => &v.guesses,
        _ => &[],
    }
}

/// A guess read back and waiting for confirmation, as said on resuming.
pub(crate) fn pending_line(guesses: &[GuessView]) -> Option<Line> {
    let g = guesses
        .iter()
        .find(|g| g.status == crate::rules::zendo::GuessStatus::Pending)?;
    Some(Line::new(
        json!({"event": "pending", "guess": g.number, "shown": g.shown, "pattern": g.reading}),
        format!(
            "guess #{} waits for confirmation: it reads: {}; confirm or take back",
            g.shown, g.reading
        ),
    ))
}

impl GameFront for ZendoFront {
    fn why(&self, view: &AnyView, cast: &Cast) -> Result<Vec<Line>, String> {
        ai_seat::terminal_why(view, cast)
    }

    fn hint(&self, view: &AnyView) -> String {
        ai_seat::hint(view)
    }

    fn game_name(&self) -> &'static str {
        if self.narrator.names.is_table() {
            "duel"
        } else {
            "practice"
        }
    }

    fn help(&self) -> &'static str {
        self.help
    }

    /// `end` passes the turn in a duel (`host: end` ends the match); practice has no
    /// turns to end.
    fn claims(&self) -> &'static [&'static str] {
        &["end"]
    }

    fn refuses(&self, action: Common) -> Option<&'static str> {
        let clock = matches!(action, Common::Pause | Common::Resume);
        (clock && !self.narrator.names.is_table()).then_some(NO_CLOCK)
    }

    fn opening(&mut self, id: MatchId, view: &AnyView, now: u64) -> Vec<Line> {
        let mut out = self.board(view);
        if let AnyView::ZendoDuel(v) = view {
            out.push(duel_status(id.0, v, &self.narrator.names, now));
        }
        out.extend(pending_line(guesses(view)));
        out
    }

    fn command(&self, Entered(word, rest, named, view, cast): Entered) -> Request {
        (self.grammar)(word, rest, named, view, cast, &self.narrator)
    }

    fn tell(&mut self, events: &[AnyEvent], view: &AnyView) -> Vec<Line> {
        let said = match (view, events) {
            (AnyView::ZendoDuel(v), _) => {
                let events: Vec<crate::rules::zendo::duel::Event> = events_of(events);
                self.narrator.duel_batch(&events, v)
            }
            (AnyView::ZendoPractice(v), _) => {
                let events: Vec<crate::rules::zendo::practice::Event> = events_of(events);
                self.narrator.practice_batch(&events, v)
            }
            _ => return Vec::new(),
        };
        said.all()
    }

    fn status(&self, id: MatchId, view: &AnyView, now: u64) -> Line {
        match view {
            AnyView::ZendoDuel(v) => duel_status(id.0, v, &self.narrator.names, now),
            AnyView::ZendoPractice(v) => practice_status(id.0, v, Front::Terminal),
            _ => Line::new(json!({}), "this match is not Zendo"),
        }
    }

    fn board(&self, view: &AnyView) -> Vec<Line> {
        board_lines(table(view))
    }

    fn waiting(&self, view: &AnyView) -> bool {
        match view {
            AnyView::ZendoDuel(v) => matches!(
                v.phase,
                PhaseView::Turn {
                    step: StepView::Verdict { .. },
                    ..
                }
            ),
            AnyView::ZendoPractice(v) => matches!(v.step, PracticeStep::Verdict { .. }),
            _ => false,
        }
    }

    fn is_over(&self, view: &AnyView) -> bool {
        match view {
            AnyView::ZendoDuel(v) => v.outcome.is_some(),
            AnyView::ZendoPractice(v) => v.outcome.is_some(),
            _ => false,
        }
    }

    fn new_pictures(&mut self, id: MatchId, view: &AnyView) -> Vec<Picture> {
        table_pictures(id, table(view), &mut self.drawn)
    }

    fn board_picture(&self, id: MatchId, view: &AnyView) -> Result<Picture, String> {
        table_board_picture(id, table(view))
    }
}

/// A one-pattern table (Duel, practice, Classic) as lines: one per structure; in JSON
/// the whole table in one `board` object.
pub(crate) fn board_lines(table: &[TableEntry]) -> Vec<Line> {
    let mut lines: Vec<Line> = table
        .iter()
        .map(|e| Line::new(json!({}), entry_line(e)))
        .collect();
    let json = board_json(table);
    match lines.first_mut() {
        Some(first) => first.json = json,
        None => lines.push(Line::new(json, "the table is empty")),
    }
    for l in lines.iter_mut().skip(1) {
        l.json = serde_json::Value::Null;
    }
    lines
}

/// Pictures of the table's structures after the first `drawn` (which then counts
/// them all).
pub(crate) fn table_pictures(id: MatchId, table: &[TableEntry], drawn: &mut usize) -> Vec<Picture> {
    let out = table
        .iter()
        .skip(*drawn)
        .map(|e| Picture {
            file: format!("match-{}-koan-{}.png", id.0, e.number),
            png: render::koan_png(
                &e.koan,
                &render::Picture {
                    mark: Some(Mark::of(e.obeys)),
                    caption: Some(format!("#{}", e.number)),
                },
            ),
            json: json!({"event": "picture", "number": e.number, "koan": e.koan.to_line()}),
            what: format!("#{} {}", e.number, e.koan.to_line()),
        })
        .collect();
    *drawn = table.len();
    out
}

/// The table as one board picture (its latest structures).
pub(crate) fn table_board_picture(id: MatchId, table: &[TableEntry]) -> Result<Picture, String> {
    let shown = &table[table.len().saturating_sub(render::MAX_BOARD)..];
    let entries: Vec<BoardEntry> = shown
        .iter()
        .map(|e| BoardEntry {
            koan: &e.koan,
            mark: Some(Mark::of(e.obeys)),
            label: format!("#{}", e.number),
        })
        .collect();
    let png = render::board_png(&entries).map_err(|e| e.to_string())?;
    Ok(Picture {
        file: format!("match-{}-board.png", id.0),
        png,
        json: json!({"event": "picture", "board": entries.len()}),
        what: format!(
            "the board ({})",
            crate::narrate::count(entries.len() as u64, "structure", "structures")
        ),
    })
}

/// The clocks of a Zendo match with turns (the Duel, Triple, Classic) after a step of
/// its replay: whose turn clock, the game clock, the challenge or answer clock.
pub fn replay_clocks(after: &crate::scoreboard::After, names: &[String]) -> Vec<String> {
    use crate::scoreboard::{clock, seat_of, state, time};
    use serde_json::Value;
    let v = after.spectator;
    let mut out = Vec::new();
    let turn = v.get("phase").and_then(|p| p.get("seat")).and_then(seat_of);
    if let (Some(seat), Some((left, running))) = (turn, clock(v.get("clock"), after.at)) {
        let name = names.get(seat).map_or("?", String::as_str);
        out.push(format!(
            "{name}'s turn clock: {} left{}",
            time(left),
            state(running)
        ));
    }
    if let Some((left, running)) = clock(v.get("game_clock"), after.at) {
        out.push(format!(
            "game clock: {} of play left{}",
            time(left),
            state(running)
        ));
    }
    if let Some(phase) = v.get("phase") {
        let step = phase.get("step").and_then(Value::as_str);
        if let Some((left, running)) = clock(phase.get("clock"), after.at) {
            let what = match step {
                Some("challenge") => "challenge clock",
                _ => "answer clock",
            };
            out.push(format!("{what}: {} left{}", time(left), state(running)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::YOU;

    #[test]
    fn the_shared_words_are_read_once_for_every_mode() {
        let cast = Cast::solo();
        let me = Actor::Player(YOU);
        let read = |word: &str, rest: &str, named: Option<Actor>| {
            shared_command((word, rest), named, &cast, &|_| Ok(me))
        };
        for (word, rest, m) in [
            ("confirm", "", ZendoMove::Confirm),
            ("take", "back", ZendoMove::TakeBack),
            ("takeback", "", ZendoMove::TakeBack),
            ("end", "turn", ZendoMove::EndTurn),
            ("endturn", "", ZendoMove::EndTurn),
            ("start", "you", ZendoMove::ChooseStarter { starter: YOU }),
        ] {
            assert_eq!(read(word, rest, None), Some(Ok((me, m))), "{word} {rest}");
        }
        // The one named makes it; a disallowing is the host's, and this table has none.
        let host = Actor::Host(PlayerId(9));
        assert_eq!(
            read("disallow", "", Some(host)),
            Some(Ok((host, ZendoMove::Disallow)))
        );
        assert_eq!(read("disallow", "", None), Some(Err(crate::NO_HOST.into())));
        let e = read("start", "zoe", None).unwrap().unwrap_err();
        assert!(e.contains("`zoe` does not play here"), "{e}");
        // Each mode's own words are its own.
        for (word, rest) in [("koan", "1^"), ("end", ""), ("end", "match"), ("pass", "")] {
            assert_eq!(read(word, rest, None), None, "{word} {rest}");
        }
    }
}
