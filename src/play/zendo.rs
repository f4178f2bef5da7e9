//! Zendo at the terminal: the Duel (two players and a host at one terminal) and solo
//! practice. The grammar of their commands, their help, and their pictures; the words
//! are `narrate::zendo`'s.

use super::{Cast, GameFront, Picture, Source, YOU};
use crate::finder::Limits;
use crate::koan::PieceSet;
use crate::narrate::zendo::{
    Narrator, board_json, duel_status, entry_line, practice_status, read_guess,
    read_structure_and_mode,
};
use crate::narrate::{Front, Line};
use crate::render::{self, BoardEntry, Mark};
use crate::rules::zendo::practice::{NO_CHALLENGE, NO_TURNS};
use crate::rules::zendo::{
    Answer, DuelMove, DuelSetup, DuelView, GuessView, Mode, Opening, PhaseView, PracticeMove,
    PracticeSetup, PracticeStep, PracticeView, Settings, StepView, TableEntry, Timing, opening,
};
use crate::rules::{Action, Actor, PlayerId};
use crate::runtime::{AnyAction, AnyEvent, AnyView, Common, events_of};
use crate::store::MatchId;
use serde_json::json;

/// The help at the terminal: the block of docs/games/practice.md under "At the terminal".
pub fn help() -> &'static str {
    super::help_from_docs(include_str!("../../docs/games/practice.md"))
}

/// The help at the terminal: the block of docs/games/duel.md under "At the terminal".
pub fn duel_help() -> &'static str {
    super::help_from_docs(include_str!("../../docs/games/duel.md"))
}

/// A practice setup for `settings` (either piece set): the hidden pattern and the two
/// structures that open the game ([`crate::rules::zendo::opening`]).
pub fn practice_setup(
    source: Source<'_>,
    seed: u64,
    settings: Settings,
) -> Result<PracticeSetup, String> {
    let o = open_with(source, settings.set, seed)?;
    Ok(PracticeSetup {
        player: YOU,
        hidden: o.hidden,
        initial: o.initial,
        settings,
        seed,
    })
}

/// The opening of a new match, said as the terminal says errors.
fn open_with(source: Source<'_>, set: PieceSet, seed: u64) -> Result<Opening, String> {
    opening(source, set, seed, &Limits::default()).map_err(|e| e.to_string())
}

/// Who has the advantage (chooses who starts) at a two-player table: the player named
/// (`--advantage`), by default the second, the one challenged.
pub(super) fn advantage_of(cast: &Cast, name: Option<&str>) -> Result<PlayerId, String> {
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

/// A duel setup for `cast`: `advantage` (a player's name; by default the second, the
/// one challenged) chooses who starts.
pub fn duel_setup(
    cast: &Cast,
    source: Source<'_>,
    seed: u64,
    advantage: Option<&str>,
    settings: Settings,
    timing: Timing,
) -> Result<DuelSetup, String> {
    let [(a, _), (b, _)] = cast.players() else {
        return Err("a duel needs two players: --players alice,bob".into());
    };
    let advantage = advantage_of(cast, advantage)?;
    if settings.set != PieceSet::Pyramids {
        return Err(format!(
            "the Zendo Duel plays with the 12 pyramids, not {}; arrows are for practice \
             (mondo play --set arrows)",
            settings.set
        ));
    }
    let o = open_with(source, settings.set, seed)?;
    Ok(DuelSetup {
        players: [*a, *b],
        advantage,
        hidden: o.hidden,
        initial: o.initial,
        settings,
        timing,
        seed,
    })
}

/// The Zendo front of one match (a duel or practice).
pub struct ZendoFront {
    narrator: Narrator,
    /// Table entries already drawn (`--png`).
    drawn: usize,
}

impl ZendoFront {
    pub fn new(cast: &Cast, view: &AnyView) -> ZendoFront {
        let narrator = match view {
            AnyView::ZendoDuel(v) => Narrator::duel(cast.names(), v),
            _ => Narrator::new(cast.names()),
        };
        ZendoFront { narrator, drawn: 0 }
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
    fn game_name(&self) -> &'static str {
        if self.narrator.names.is_table() {
            "duel"
        } else {
            "practice"
        }
    }

    fn help(&self) -> &'static str {
        if self.narrator.names.is_table() {
            duel_help()
        } else {
            help()
        }
    }

    fn opening(&mut self, id: MatchId, view: &AnyView, now: u64) -> Vec<Line> {
        let mut out = self.board(view);
        if let AnyView::ZendoDuel(v) = view {
            out.push(duel_status(id.0, v, &self.narrator.names, now));
        }
        out.extend(pending_line(guesses(view)));
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
        match view {
            AnyView::ZendoDuel(v) => duel_command(word, rest, named, v, cast, &self.narrator),
            AnyView::ZendoPractice(v) => practice_command(word, rest, named, v),
            _ => Err("this match is not Zendo".into()),
        }
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

/// A command of a duel, and who gives it (the named one, or the one it must be).
fn duel_command(
    word: &str,
    rest: &str,
    named: Option<Actor>,
    v: &DuelView,
    cast: &Cast,
    narrator: &Narrator,
) -> Result<(Actor, AnyAction), String> {
    let host = || match cast.host() {
        Some((id, _)) => Ok(Actor::Host(*id)),
        None => Err("this match has no host".to_string()),
    };
    let [a, b] = [0, 1].map(|i| cast.players()[i].1.clone());
    let turn_player = || match v.phase {
        PhaseView::Turn { seat, .. } => Ok(Actor::Player(v.players[seat])),
        PhaseView::ChoosingStarter => {
            let adv = narrator.names.name(v.advantage);
            Err(format!(
                "first {adv}, who has the advantage, chooses who starts: `{adv}: start {a}` \
                 or `{adv}: start {b}`"
            ))
        }
        PhaseView::Over => Err("the match is over".into()),
    };
    let by = |default: &dyn Fn() -> Result<Actor, String>| named.map_or_else(default, Ok);
    let play = |m: DuelMove| -> Result<(Actor, AnyAction), String> {
        Ok((by(&turn_player)?, AnyAction::ZendoDuel(Action::Move(m))))
    };
    match (word, rest) {
        ("", _) => Err("say what, after the name: e.g. `alice: koan 1^ 2>`".into()),
        ("koan", text) => {
            let (koan, mode) = read_structure_and_mode(text, v.settings.set)?;
            play(DuelMove::Build { koan, mode })
        }
        ("guess", text) => play(DuelMove::Guess {
            pattern: read_guess(text, v.settings.set)?,
        }),
        ("confirm", _) => play(DuelMove::Confirm),
        ("take", "back") | ("takeback", _) => play(DuelMove::TakeBack),
        ("skip", _) => play(DuelMove::Skip),
        ("end", "turn") | ("endturn", _) => play(DuelMove::EndTurn),
        ("end", "match" | "game") => Ok((by(&host)?, AnyAction::Common(Common::End))),
        ("end", "") => match named {
            Some(actor @ Actor::Host(_)) => Ok((actor, AnyAction::Common(Common::End))),
            Some(actor) => Ok((actor, AnyAction::ZendoDuel(DuelMove::EndTurn.into()))),
            None => Err(
                "`end` alone could mean two things: `end turn` passes the turn; \
                         `host: end` ends the match with no winner"
                    .into(),
            ),
        },
        // "Nothing from me now": skip step 1, end step 2, or no answer.
        ("pass", _) => match &v.phase {
            PhaseView::Turn {
                step: StepView::Build,
                ..
            } => play(DuelMove::Skip),
            PhaseView::Turn {
                step: StepView::Challenge { .. },
                ..
            } => answer(named, Answer::Pass, &a, &b),
            _ => play(DuelMove::EndTurn),
        },
        ("start", "") => Err("say who starts: e.g. `start alice`".into()),
        ("start", name) => match cast.actor(name) {
            Some(Actor::Player(starter)) => {
                let advantage = || Ok(Actor::Player(v.players[v.advantage]));
                Ok((
                    by(&advantage)?,
                    AnyAction::ZendoDuel(DuelMove::ChooseStarter { starter }.into()),
                ))
            }
            _ => Err(format!(
                "`{name}` does not play here; start one of the players"
            )),
        },
        ("answer", "") => Err("answer `obeys`, `not` or `pass`, e.g. `bob: answer obeys`".into()),
        ("answer", text) => answer(named, text.parse()?, &a, &b),
        ("give", "up") | ("resign", _) => match named {
            Some(actor) => Ok((actor, AnyAction::Common(Common::Resign))),
            None => Err(format!("say who resigns: `{a}: resign` or `{b}: resign`")),
        },
        ("pause", _) => Ok((by(&host)?, AnyAction::Common(Common::Pause))),
        ("resume", _) => Ok((by(&host)?, AnyAction::Common(Common::Resume))),
        ("disallow", _) => Ok((by(&host)?, AnyAction::ZendoDuel(DuelMove::Disallow.into()))),
        _ => Err(format!("`{word}` is not a command; `help` lists them")),
    }
}

/// A challenge answer: both players answer, so it needs a name.
fn answer(
    named: Option<Actor>,
    answer: Answer,
    a: &str,
    b: &str,
) -> Result<(Actor, AnyAction), String> {
    match named {
        Some(actor) => Ok((
            actor,
            AnyAction::ZendoDuel(DuelMove::Answer { answer }.into()),
        )),
        None => Err(format!(
            "say who answers: `{a}: answer obeys` or `{b}: answer not` (both players answer \
             a challenge)"
        )),
    }
}

/// A command of solo practice: always the player's (a host's `disallow`/`end` aside).
fn practice_command(
    word: &str,
    rest: &str,
    named: Option<Actor>,
    v: &PracticeView,
) -> Result<(Actor, AnyAction), String> {
    let me = named.unwrap_or(Actor::Player(YOU));
    let play = |m: PracticeMove| Ok((me, AnyAction::ZendoPractice(Action::Move(m))));
    match (word, rest) {
        ("koan", text) => match read_structure_and_mode(text, v.settings.set)? {
            (_, Mode::Challenge) => Err(NO_CHALLENGE.into()),
            (koan, Mode::Observe) => play(PracticeMove::Build { koan }),
        },
        ("guess", text) => play(PracticeMove::Guess {
            pattern: read_guess(text, v.settings.set)?,
        }),
        ("confirm", _) => play(PracticeMove::Confirm),
        ("take", "back") | ("takeback", _) => play(PracticeMove::TakeBack),
        ("give", "up") | ("resign", _) => Ok((me, AnyAction::Common(Common::Resign))),
        ("answer", _) => Err(NO_CHALLENGE.into()),
        ("skip" | "pass" | "start", _) | ("end", "turn") | ("endturn", _) => Err(NO_TURNS.into()),
        ("pause" | "resume", _) => Err("practice has no clock".into()),
        _ => Err(format!("`{word}` is not a command; `help` lists them")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::zendo::Practice;
    use crate::rules::zendo::testing::*;
    use crate::rules::{Game, Viewer};

    #[test]
    fn practice_refuses_what_needs_an_opponent_or_a_clock() {
        let h = Harness::<Practice>::practice(practice_setup_for_tests());
        let v = h.game.view(&Viewer::Player(ALICE));
        for (word, rest, expected) in [
            ("koan", "1^ 1^ challenge", NO_CHALLENGE),
            ("answer", "obeys", NO_CHALLENGE),
            ("skip", "", NO_TURNS),
            ("end", "turn", NO_TURNS),
            ("start", "alice", NO_TURNS),
            ("pause", "", "practice has no clock"),
        ] {
            let e = practice_command(word, rest, None, &v).err();
            assert_eq!(e.as_deref(), Some(expected), "{word} {rest}");
        }
        assert!(practice_command("koan", "1^ 1^", None, &v).is_ok());
        assert!(practice_command("koan", "1^ 1^ observe", None, &v).is_ok());
    }

    fn practice_setup_for_tests() -> PracticeSetup {
        crate::rules::zendo::testing::practice_setup(parsed("some piece points up"))
    }
}
