//! Zendo Triple at the terminal: two players (and a host) at one terminal. The grammar
//! of its commands and its help; the words are `narrate::zendo::triple`'s.

use super::shared_command;
use crate::args::{TableArgs, check_limits, seconds};
use crate::finder::Limits;
use crate::narrate::zendo::triple::{board, status, tell};
use crate::narrate::zendo::{read_guess, read_structure_and_mode};
use crate::narrate::{Line, Names};
use crate::pool::Pool;
use crate::render::{self, BoardEntry};
use crate::rules::zendo::triple::{
    Letter, PhaseView, StepView, TripleEntry, TripleMove, TripleSetup, TripleTiming, TripleView,
    letters, opening::triple_opening,
};
use crate::rules::zendo::{Answer, Mode, Settings, ZendoMove};
use crate::rules::{Action, Actor};
use crate::runtime::{AnyAction, AnyEvent, AnySetup, AnyView, Common, events_of};
use crate::store::MatchId;
use crate::store::Store;
use crate::{Cast, Entered, GameFront, Picture, Request, Terminal};
use serde_json::json;

/// The help at the terminal: the block of docs/games/triple.md under "At the terminal".
pub fn help() -> &'static str {
    crate::help_from_docs(include_str!("../../../../../docs/games/triple.md"))
}

/// A Triple for the cast's two players: `advantage` (a player's name; by default the
/// second, the one challenged) chooses who starts, as in the duel.
pub fn triple_setup(
    cast: &Cast,
    patterns: &[String],
    pool: &Pool,
    seed: u64,
    advantage: Option<&str>,
    timing: TripleTiming,
) -> Result<TripleSetup, String> {
    let [(a, _), (b, _)] = cast.players() else {
        return Err("a Triple needs two players: --players alice,bob".into());
    };
    let advantage = super::advantage_of(cast, advantage)?;
    let (hidden, opening) = triple_opening(patterns, pool, seed, &Limits::default())?;
    Ok(TripleSetup {
        players: [*a, *b],
        starter: None,
        advantage: Some(advantage),
        hidden: Box::new(hidden),
        opening: Box::new(opening),
        settings: Settings {
            set: crate::koan::PieceSet::Arrows,
            ..Settings::default()
        },
        timing,
        seed,
    })
}

/// The Triple at the terminal.
pub struct Front;

/// The Triple's own `mondo play` options.
#[derive(Debug, clap::Args)]
pub struct TripleArgs {
    /// Triple: seconds of play before the quiz decides the patterns left (default 7200).
    #[arg(long = "play-secs", requires = "players", value_parser = seconds)]
    pub play_ms: Option<u64>,
    /// Triple: seconds to answer one round of the quiz (default 300).
    #[arg(long = "quiz-secs", requires = "players", value_parser = seconds)]
    pub quiz_ms: Option<u64>,
}

impl Terminal for Front {
    const NAME: &'static str = "triple";
    const ABOUT: &'static str = "Zendo Triple: three hidden arrows patterns, first to solve two \
                                 (needs --players A,B; --pattern three times fixes A, B and C).";
    type Args = TripleArgs;
    type Commands = crate::commands::NoCommands;
    type Logged = super::logged::Log;
    type Bench = crate::commands::NoCommands;

    fn front(cast: &Cast, _view: &AnyView) -> Box<dyn GameFront> {
        Box::new(TripleFront::new(cast))
    }

    fn help() -> &'static str {
        help()
    }

    fn check(table: &TableArgs, own: &TripleArgs) -> Result<(), String> {
        let mine = [
            ("--play-secs", own.play_ms, &["play_secs"][..]),
            ("--quiz-secs", own.quiz_ms, &["quiz_secs"][..]),
        ];
        check_limits("triple", &table.durations(), &[])?;
        check_limits("triple", &mine, &[])
    }

    /// Two players, three patterns (given, or drawn from the arrows pool), its clocks.
    async fn setup(
        table: &TableArgs,
        own: &TripleArgs,
        store: &Store,
        seed: u64,
    ) -> Result<(AnySetup, Cast), String> {
        let [a, b] = table.players.as_slice() else {
            return Err(format!(
                "a Triple needs exactly two players, e.g. --players alice,bob (got {})",
                table.players.len()
            ));
        };
        let pool = table.pool_or_shipped(crate::koan::PieceSet::Arrows)?;
        let cast = Cast::table(store, &[a, b], table.host()).await?;
        let default = TripleTiming::default();
        let timing = TripleTiming {
            turn_ms: table.turn_ms.unwrap_or(default.turn_ms),
            challenge_ms: table.challenge_ms.unwrap_or(default.challenge_ms),
            counterexample_bonus_ms: table
                .guess_bonus_ms
                .unwrap_or(default.counterexample_bonus_ms),
            game_ms: own.play_ms.unwrap_or(default.game_ms),
            quiz_ms: own.quiz_ms.unwrap_or(default.quiz_ms),
        };
        let setup = triple_setup(
            &cast,
            &table.pattern,
            &pool,
            seed,
            table.advantage.as_deref(),
            timing,
        )?;
        Ok((setup.into(), cast))
    }

    fn clocks(after: &crate::scoreboard::After, names: &[String]) -> Vec<String> {
        super::replay_clocks(after, names)
    }

    fn scores(after: &crate::scoreboard::After, names: &[String]) -> Vec<String> {
        crate::scoreboard::by_seat(after, names, "stones", "stones")
    }
}

/// The Triple front of one match.
pub struct TripleFront {
    names: Names,
    drawn: usize,
}

impl TripleFront {
    pub fn new(cast: &Cast) -> TripleFront {
        TripleFront {
            names: cast.names(),
            drawn: 0,
        }
    }
}

fn view(v: &AnyView) -> Result<&TripleView, String> {
    match v {
        AnyView::ZendoTriple(v) => Ok(v),
        _ => Err("this match is not a Zendo Triple".into()),
    }
}

/// `koan STRUCTURE [grade|challenge] [A,B,C]`: the mode and letters come last.
fn read_koan(text: &str) -> Result<(crate::koan::Koan, Mode, Vec<Letter>), String> {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    let mut patterns = Vec::new();
    if let Some(last) = words.last()
        && !last.is_empty()
        && last
            .chars()
            .all(|c| matches!(c.to_ascii_uppercase(), 'A' | 'B' | 'C' | ','))
        && words.len() > 1
        && last.chars().any(|c| c.is_ascii_alphabetic())
        && !last
            .chars()
            .any(|c| matches!(c, 'U' | 'R' | 'D' | 'L' | '^' | '<' | '>'))
    {
        patterns = letters(last)?;
        words.pop();
    }
    let rest = words.join(" ");
    let rest = rest.replace(" grade", " observe");
    let (koan, mode) = read_structure_and_mode(&rest, crate::koan::PieceSet::Arrows)?;
    Ok((koan, mode, patterns))
}

/// `A obeys B not C pass` for the challenged `patterns`, in their order.
pub fn read_answers(text: &str, patterns: &[Letter]) -> Result<Vec<Answer>, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut given: Vec<(Letter, Answer)> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let l: Letter = words[i].parse()?;
        let a: Answer = words
            .get(i + 1)
            .ok_or(format!("say what pattern {l} gets: obeys, not or pass"))?
            .parse()?;
        given.push((l, a));
        i += 2;
    }
    patterns
        .iter()
        .map(|l| {
            given
                .iter()
                .find(|(g, _)| g == l)
                .map(|(_, a)| *a)
                .ok_or(format!("answer every challenged pattern: {l} is missing"))
        })
        .collect()
}

impl GameFront for TripleFront {
    fn why(&self, view: &AnyView, cast: &Cast) -> Result<Vec<Line>, String> {
        super::ai_seat::terminal_why(view, cast)
    }

    /// `end` passes the turn (`host: end` ends the match).
    fn claims(&self) -> &'static [&'static str] {
        &["end"]
    }

    fn game_name(&self) -> &'static str {
        "triple"
    }

    fn help(&self) -> &'static str {
        help()
    }

    fn opening(&mut self, id: MatchId, v: &AnyView, now: u64) -> Vec<Line> {
        let mut out = self.board(v);
        out.push(self.status(id, v, now));
        out
    }

    fn command(&self, Entered(word, rest, named, any, cast): Entered) -> Request {
        let v = view(any)?;
        let host = || match cast.host() {
            Some((id, _)) => Ok(Actor::Host(*id)),
            None => Err("this match has no host".to_string()),
        };
        let turn_player = || match (&v.phase, v.turn_seat()) {
            (PhaseView::ChoosingStarter { advantage }, _) => {
                let adv = &cast.name_of(v.players[*advantage]);
                let [a, b] = [0, 1].map(|i| cast.players()[i].1.clone());
                Err(format!(
                    "first {adv}, who has the advantage, chooses who starts: `{adv}: start {a}` \
                     or `{adv}: start {b}`"
                ))
            }
            (_, Some(seat)) => Ok(Actor::Player(v.players[seat])),
            (_, None) => {
                Err("no turn is being played: answer the quiz, or look at `status`".into())
            }
        };
        let by = |default: &dyn Fn() -> Result<Actor, String>| named.map_or_else(default, Ok);
        let play = |m: TripleMove| -> Result<(Actor, AnyAction), String> {
            Ok((by(&turn_player)?, AnyAction::ZendoTriple(Action::Move(m))))
        };
        let needs_name = |what: &str| -> Result<Actor, String> {
            named.ok_or(format!(
                "say who {what}: `NAME: {what} ...` (both players answer)"
            ))
        };
        let player = |m: &ZendoMove| match (m, &v.phase) {
            (ZendoMove::ChooseStarter { .. }, PhaseView::ChoosingStarter { advantage }) => {
                Ok(Actor::Player(v.players[*advantage]))
            }
            (ZendoMove::ChooseStarter { .. }, _) => {
                Err("the starting player has already been chosen".to_string())
            }
            _ => turn_player(),
        };
        if let Some(shared) = shared_command((word, rest), named, cast, &player) {
            return shared.map(|(actor, m)| (actor, TripleMove::from(m).into()));
        }
        match (word, rest) {
            ("", _) => Err("say what, after the name: e.g. `alice: koan URL`".into()),
            ("koan", text) => {
                let (koan, mode, patterns) = read_koan(text)?;
                play(TripleMove::Build {
                    koan,
                    mode,
                    patterns,
                })
            }
            ("answer", text) => {
                let actor = needs_name("answers")?;
                let m = match &v.phase {
                    PhaseView::Turn {
                        step: StepView::Challenge { patterns, .. },
                        ..
                    } => TripleMove::Answer {
                        answers: read_answers(text, patterns)?,
                    },
                    PhaseView::Quiz { .. } => TripleMove::QuizAnswer {
                        answers: text
                            .split_whitespace()
                            .map(str::parse)
                            .collect::<Result<_, _>>()?,
                    },
                    _ => return Err("there is no challenge or quiz to answer".into()),
                };
                Ok((actor, AnyAction::ZendoTriple(Action::Move(m))))
            }
            ("guess", text) => {
                let (letter, pattern) = text.trim().split_once(char::is_whitespace).ok_or(
                    "name the pattern, then the guess: e.g. `guess A some arrow points up`",
                )?;
                play(TripleMove::Guess {
                    pattern: letter.parse()?,
                    guess: read_guess(pattern, crate::koan::PieceSet::Arrows)?,
                })
            }
            ("pass", _) => play(ZendoMove::EndTurn.into()),
            ("end", "match" | "game") => Ok((by(&host)?, AnyAction::Common(Common::End))),
            ("end", "") => match named {
                Some(actor @ Actor::Host(_)) => Ok((actor, AnyAction::Common(Common::End))),
                _ => Err("`end turn` passes the turn; `host: end` ends the match".into()),
            },
            _ => Err(format!("`{word}` is not a command; `help` lists them")),
        }
    }

    fn tell(&mut self, events: &[AnyEvent], any: &AnyView) -> Vec<Line> {
        match view(any) {
            Ok(v) => {
                let events: Vec<crate::rules::zendo::triple::Event> = events_of(events);
                tell(&self.names, &events, v)
            }
            Err(e) => vec![Line::new(json!({"event": "error", "message": e}), e)],
        }
    }

    fn status(&self, id: MatchId, any: &AnyView, now: u64) -> Line {
        match view(any) {
            Ok(v) => status(id.0, &self.names, v, now),
            Err(e) => Line::new(json!({"event": "error", "message": e}), e),
        }
    }

    fn board(&self, any: &AnyView) -> Vec<Line> {
        view(any).map(board).unwrap_or_default()
    }

    fn waiting(&self, any: &AnyView) -> bool {
        matches!(
            view(any).map(|v| &v.phase),
            Ok(PhaseView::Turn {
                step: StepView::Verdict { .. },
                ..
            })
        )
    }

    fn is_over(&self, any: &AnyView) -> bool {
        view(any).is_ok_and(|v| v.outcome.is_some())
    }

    fn new_pictures(&mut self, id: MatchId, any: &AnyView) -> Vec<Picture> {
        let Ok(v) = view(any) else { return vec![] };
        let out = v
            .table
            .iter()
            .skip(self.drawn)
            .map(|e| Picture {
                file: format!("match-{}-koan-{}.png", id.0, e.number),
                png: render::lettered_koan_png(
                    &e.koan,
                    Some(&format!("#{}", e.number)),
                    &render::abc(e.marks),
                ),
                json: json!({"event": "picture", "number": e.number, "koan": e.koan.to_line()}),
                what: format!("#{} {}", e.number, e.koan.to_line()),
            })
            .collect();
        self.drawn = v.table.len();
        out
    }

    fn board_picture(&self, id: MatchId, any: &AnyView) -> Result<Picture, String> {
        let v = view(any)?;
        let png = table_png(&v.table).map_err(|e| e.to_string())?;
        let shown = v.table.len().min(render::MAX_BOARD);
        Ok(Picture {
            file: format!("match-{}-board.png", id.0),
            png,
            json: json!({"event": "picture", "board": shown}),
            what: format!(
                "the board ({})",
                crate::narrate::count(shown as u64, "structure", "structures")
            ),
        })
    }
}

/// The table in one picture (its last [`render::MAX_BOARD`] structures), each with
/// its stones on A, B and C.
pub fn table_png(table: &[TripleEntry]) -> Result<Vec<u8>, render::RenderError> {
    let shown = &table[table.len().saturating_sub(render::MAX_BOARD)..];
    let entries: Vec<BoardEntry> = shown
        .iter()
        .map(|e| BoardEntry {
            koan: &e.koan,
            mark: None,
            label: format!("#{}", e.number),
        })
        .collect();
    let stones: Vec<_> = shown.iter().map(|e| render::abc(e.marks)).collect();
    let letters: Vec<&render::Lettered> = stones.iter().map(|s| &s[..]).collect();
    render::lettered_board_png(&entries, &letters)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn koan_commands_read_mode_and_patterns() {
        let (k, m, p) = read_koan("URL challenge A,C").unwrap();
        assert_eq!(
            (k.len(), m, p),
            (3, Mode::Challenge, vec![Letter::A, Letter::C])
        );
        let (_, m, p) = read_koan("UD").unwrap();
        assert_eq!((m, p), (Mode::Observe, vec![]));
        let (_, m, p) = read_koan("UD grade B").unwrap();
        assert_eq!((m, p), (Mode::Observe, vec![Letter::B]));
        assert!(read_koan("UD challenge X").is_err());
    }

    #[test]
    fn answers_read_per_pattern() {
        let got = read_answers("C pass A obeys", &[Letter::A, Letter::C]).unwrap();
        assert_eq!(got, vec![Answer::Obeys, Answer::Pass]);
        let e = read_answers("A obeys", &[Letter::A, Letter::C]).unwrap_err();
        assert!(e.contains("C is missing"), "{e}");
    }
}
