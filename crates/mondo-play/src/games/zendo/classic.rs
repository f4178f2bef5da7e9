//! Zendo Classic at the terminal: 2 to 8 students (and a host) at one terminal. The
//! grammar of its commands and its help; the words are `narrate::zendo::classic`'s and, for
//! the table and the guesses, `narrate::zendo`'s.

use super::{
    Source, board_lines, pending_line, pool_for, shared_command, source, table_board_picture,
    table_pictures, zendo_settings,
};
use crate::args::{TableArgs, check_limits, seconds};
use crate::finder::Limits;
use crate::narrate::Line;
use crate::narrate::zendo::classic::{ClassicNarrator, status};
use crate::narrate::zendo::{read_guess, read_structure};
use crate::rules::zendo::classic::{
    Call, ClassicMove, ClassicSetup, ClassicTiming, ClassicView, MAX_STUDENTS, MIN_STUDENTS,
    opening::classic_opening,
};
use crate::rules::zendo::{Settings, StepView, ZendoMove};
use crate::rules::{Action, Actor, PlayerId};
use crate::runtime::{AnyAction, AnyEvent, AnySetup, AnyView, Common, events_of};
use crate::store::MatchId;
use crate::store::Store;
use crate::{Cast, Entered, GameFront, Picture, Request, Terminal};
use serde_json::json;

/// The help at the terminal: the block of docs/games/classic.md under "At the terminal".
pub fn help() -> &'static str {
    crate::help_from_docs(include_str!("../../../../../docs/games/classic.md"))
}

/// A Classic game for the cast's students (in the order given: the turn order). With
/// `master`, the host is the Master who chose the rule (`source` is then their
/// pattern, checked reasonable).
pub fn classic_setup(
    cast: &Cast,
    source: Source<'_>,
    seed: u64,
    settings: Settings,
    timing: ClassicTiming,
    master: Option<PlayerId>,
) -> Result<ClassicSetup, String> {
    let students: Vec<PlayerId> = cast.players().iter().map(|(id, _)| *id).collect();
    if !(MIN_STUDENTS..=MAX_STUDENTS).contains(&students.len()) {
        return Err(format!(
            "Zendo Classic needs {MIN_STUDENTS} to {MAX_STUDENTS} students, e.g. --players \
             alice,bob,carol (got {})",
            students.len()
        ));
    }
    let o = classic_opening(source, settings.set, seed, &Limits::default())?;
    Ok(ClassicSetup {
        students,
        master,
        hidden: o.hidden,
        initial: o.initial,
        settings,
        timing,
        seed,
        lobby: None,
    })
}

/// Classic at the terminal.
pub struct Front;

/// Classic's own `mondo play` option.
#[derive(Debug, clap::Args)]
pub struct ClassicArgs {
    /// Classic: seconds to answer a mondo (default 30; --challenge-secs too).
    #[arg(long = "answer-secs", requires = "players", value_parser = seconds)]
    pub answer_ms: Option<u64>,
}

impl Terminal for Front {
    const NAME: &'static str = "classic";
    const ABOUT: &'static str = "Zendo Classic: the umpire as the Master and 2 to 8 students in \
                                 turn order (--players A,B,C); --pattern fixes the rule (the \
                                 host's, checked reasonable).";
    type Args = ClassicArgs;
    type Commands = crate::commands::NoCommands;
    type Logged = super::logged::Log;
    type Bench = crate::commands::NoCommands;

    fn front(cast: &Cast, view: &AnyView) -> Box<dyn GameFront> {
        Box::new(ClassicFront::new(cast, view))
    }

    fn help() -> &'static str {
        help()
    }

    fn check(table: &TableArgs, own: &ClassicArgs) -> Result<(), String> {
        let mine = [("--answer-secs", own.answer_ms, &["answer_secs"][..])];
        check_limits("classic", &table.durations(), &[])?;
        check_limits("classic", &mine, &[])
    }

    /// 2 to 8 students in the order given, the rule from the pool (or `--pattern`: the
    /// host's, who is then the Master), its clocks.
    async fn setup(
        table: &TableArgs,
        own: &ClassicArgs,
        store: &Store,
        seed: u64,
    ) -> Result<(AnySetup, Cast), String> {
        let settings = zendo_settings(table);
        let pool = pool_for(table, settings.set)?;
        let source = source(table, &pool);
        let names: Vec<&str> = table.players.iter().map(String::as_str).collect();
        let cast = Cast::table(store, &names, table.host()).await?;
        let default = ClassicTiming::default();
        let timing = ClassicTiming {
            turn_ms: table.turn_ms.unwrap_or(default.turn_ms),
            answer_ms: own
                .answer_ms
                .or(table.challenge_ms)
                .unwrap_or(default.answer_ms),
            guess_bonus_ms: table.guess_bonus_ms.unwrap_or(default.guess_bonus_ms),
        };
        let master = match source {
            Source::Pattern(_) => cast.host().map(|(id, _)| *id),
            _ => None,
        };
        let setup = classic_setup(&cast, source, seed, settings, timing, master)?;
        Ok((setup.into(), cast))
    }

    fn clocks(after: &crate::scoreboard::After, names: &[String]) -> Vec<String> {
        super::replay_clocks(after, names)
    }

    fn scores(after: &crate::scoreboard::After, names: &[String]) -> Vec<String> {
        crate::scoreboard::by_seat(after, names, "stones", "stones")
    }
}

/// The Classic front of one game.
pub struct ClassicFront {
    narrator: ClassicNarrator,
    drawn: usize,
}

impl ClassicFront {
    pub fn new(cast: &Cast, view: &AnyView) -> ClassicFront {
        ClassicFront {
            narrator: ClassicNarrator::new(cast.names(), self::view(view).ok()),
            drawn: 0,
        }
    }
}

fn view(v: &AnyView) -> Result<&ClassicView, String> {
    match v {
        AnyView::ZendoClassic(v) => Ok(v),
        _ => Err("this match is not a Zendo Classic game".into()),
    }
}

/// `STRUCTURE [master|mondo]`: the call comes last (`master` when left out).
fn read_koan(text: &str, set: crate::koan::PieceSet) -> Result<(crate::koan::Koan, Call), String> {
    let text = text.trim();
    let (structure, call) = match text.rsplit_once(char::is_whitespace) {
        Some((s, last)) if last.chars().all(|c| c.is_ascii_alphabetic()) => (s, last.parse()?),
        _ => (text, Call::Master),
    };
    Ok((read_structure(structure, set)?, call))
}

impl GameFront for ClassicFront {
    fn why(&self, view: &AnyView, cast: &Cast) -> Result<Vec<Line>, String> {
        super::ai_seat::terminal_why(view, cast)
    }

    /// `end` passes the turn (`host: end` ends the game).
    fn claims(&self) -> &'static [&'static str] {
        &["end"]
    }

    fn game_name(&self) -> &'static str {
        "classic"
    }

    fn help(&self) -> &'static str {
        help()
    }

    fn opening(&mut self, id: MatchId, any: &AnyView, now: u64) -> Vec<Line> {
        let mut out = self.board(any);
        out.push(self.status(id, any, now));
        if let Ok(v) = view(any) {
            out.extend(pending_line(&v.guesses));
        }
        out
    }

    fn command(&self, Entered(word, rest, named, any, cast): Entered) -> Request {
        let v = view(any)?;
        let host = || cast.host_actor();
        let turn_student = || match v.turn_seat() {
            Some(seat) => Ok(Actor::Player(v.players[seat])),
            None => Err("the game is over".to_string()),
        };
        let by = |default: &dyn Fn() -> Result<Actor, String>| named.map_or_else(default, Ok);
        let play = |m: ClassicMove| -> Result<(Actor, AnyAction), String> {
            Ok((by(&turn_student)?, AnyAction::ZendoClassic(Action::Move(m))))
        };
        let needs_name = |what: &str, example: &str| -> Result<Actor, String> {
            named.ok_or(format!(
                "say who {what}: `NAME: {example}` (any student may)"
            ))
        };
        if let Some(shared) = shared_command((word, rest), named, cast, &|_| turn_student()) {
            return shared.map(|(actor, m)| (actor, ClassicMove::from(m).into()));
        }
        match (word, rest) {
            ("", _) => Err("say what, after the name: e.g. `alice: koan 1^ mondo`".into()),
            ("koan", text) => {
                let (koan, call) = read_koan(text, v.settings.set)?;
                play(ClassicMove::Build { koan, call })
            }
            ("answer", "") => {
                Err("answer `obeys`, `not` or `pass`, e.g. `bob: answer obeys`".into())
            }
            ("answer", text) => {
                let answer = text.parse()?;
                Ok((
                    needs_name("answers", "answer obeys")?,
                    AnyAction::ZendoClassic(ClassicMove::Answer { answer }.into()),
                ))
            }
            ("guess", text) => play(ClassicMove::Guess {
                pattern: read_guess(text, v.settings.set)?,
            }),
            ("end", "match" | "game") => Ok((by(&host)?, AnyAction::Common(Common::End))),
            ("end", "") => match named {
                Some(actor @ Actor::Host(_)) => Ok((actor, AnyAction::Common(Common::End))),
                Some(actor) => Ok((actor, ClassicMove::from(ZendoMove::EndTurn).into())),
                None => Err("`end turn` passes the turn; `host: end` ends the game".into()),
            },
            ("back", _) => Ok((
                needs_name("is back", "back")?,
                AnyAction::ZendoClassic(ClassicMove::Back.into()),
            )),
            ("leave", _) => Ok((
                needs_name("leaves", "leave")?,
                AnyAction::Common(Common::Resign),
            )),
            _ => Err(format!("`{word}` is not a command; `help` lists them")),
        }
    }

    fn tell(&mut self, events: &[AnyEvent], any: &AnyView) -> Vec<Line> {
        match view(any) {
            Ok(v) => {
                let events: Vec<crate::rules::zendo::classic::Event> = events_of(events);
                self.narrator.batch(&events, v)
            }
            Err(e) => vec![Line::new(json!({"event": "error", "message": e}), e)],
        }
    }

    fn status(&self, id: MatchId, any: &AnyView, now: u64) -> Line {
        match view(any) {
            Ok(v) => status(id.0, v, self.narrator.names(), now),
            Err(e) => Line::new(json!({"event": "error", "message": e}), e),
        }
    }

    fn board(&self, any: &AnyView) -> Vec<Line> {
        view(any).map(|v| board_lines(&v.table)).unwrap_or_default()
    }

    fn waiting(&self, any: &AnyView) -> bool {
        matches!(
            view(any).map(|v| v.step()),
            Ok(Some(StepView::Verdict { .. }))
        )
    }

    fn is_over(&self, any: &AnyView) -> bool {
        view(any).is_ok_and(|v| v.outcome.is_some())
    }

    fn new_pictures(&mut self, id: MatchId, any: &AnyView) -> Vec<Picture> {
        match view(any) {
            Ok(v) => table_pictures(id, &v.table, &mut self.drawn),
            Err(_) => Vec::new(),
        }
    }

    fn board_picture(&self, id: MatchId, any: &AnyView) -> Result<Picture, String> {
        table_board_picture(id, &view(any)?.table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::koan::PieceSet;

    #[test]
    fn koan_commands_read_the_call() {
        let (k, c) = read_koan("1^ 2> mondo", PieceSet::Pyramids).unwrap();
        assert_eq!((k.len(), c), (2, Call::Mondo));
        let (_, c) = read_koan("1^ 2>", PieceSet::Pyramids).unwrap();
        assert_eq!(c, Call::Master);
        let (_, c) = read_koan("1^ / 2> master", PieceSet::Pyramids).unwrap();
        assert_eq!(c, Call::Master);
        let e = read_koan("1^ challenge", PieceSet::Pyramids).unwrap_err();
        assert!(e.contains("`challenge` is not a call"), "{e}");
    }
}
