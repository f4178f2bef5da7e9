//! The Zendo Duel at the terminal: two players and a host at one terminal. Its
//! grammar, its help, its setup and its `mondo play` options; the front is the
//! family's ([`super::ZendoFront`]).

use super::{
    Source, ZendoFront, advantage_of, open_with, pool_for, shared_command, source, zendo_settings,
};
use crate::args::{TableArgs, check_limits};
use crate::koan::PieceSet;
use crate::narrate::zendo::{Narrator, read_guess, read_structure_and_mode};
use crate::rules::zendo::{
    Answer, DuelMove, DuelSetup, DuelView, PhaseView, Settings, StepView, Timing, ZendoMove,
};
use crate::rules::{Action, Actor};
use crate::runtime::{AnyAction, AnySetup, AnyView, Common};
use crate::store::Store;
use crate::{Cast, GameFront, Terminal};

/// The Duel at the terminal.
pub struct Front;

/// The Duel's own `mondo play` option.
#[derive(Debug, clap::Args)]
pub struct DuelArgs {
    /// A Zendo Duel between two players at this terminal (see `help` once playing);
    /// the same as `mondo play duel`.
    #[arg(long, requires = "players")]
    pub duel: bool,
    /// Which players of a Zendo Duel, Triple or Classic game are AI students (again
    /// for each; without it, players named `ai`, `ai2`, `ai3`... are): each plays under
    /// its level's own name (`ai-player`, a second one `ai-player-2`), which no person
    /// may take, and types its own commands, seeing only what its player sees. A
    /// player named `ai-beginner`, `ai-player` or `ai-expert` is the AI at that level.
    #[arg(long, value_name = "NAME")]
    pub ai: Vec<String>,
    /// How strong the AI students play: beginner, player or expert.
    #[arg(long = "ai-level", default_value = "player", value_parser = ai_level)]
    pub ai_level: crate::student::zendo::Level,
}

fn ai_level(text: &str) -> Result<crate::student::zendo::Level, String> {
    crate::student::zendo::Level::parse(text).ok_or_else(|| {
        format!("unknown level `{text}`: the levels are beginner, player and expert")
    })
}

impl Terminal for Front {
    const NAME: &'static str = "duel";
    const ABOUT: &'static str = "The Zendo Duel (needs --players A,B).";
    type Args = DuelArgs;
    type Commands = crate::commands::NoCommands;
    type Logged = super::logged::Log;
    type Bench = crate::commands::NoCommands;

    fn front(cast: &Cast, view: &AnyView) -> Box<dyn GameFront> {
        Box::new(ZendoFront::new(cast, view, duel_help(), grammar))
    }

    fn help() -> &'static str {
        duel_help()
    }

    fn asked(own: &DuelArgs) -> Option<&'static str> {
        own.duel.then_some("--duel")
    }

    fn check(table: &TableArgs, _own: &DuelArgs) -> Result<(), String> {
        check_limits("zendo", &table.durations(), &[])
    }

    async fn setup(
        table: &TableArgs,
        _own: &DuelArgs,
        store: &Store,
        seed: u64,
    ) -> Result<(AnySetup, Cast), String> {
        let settings = zendo_settings(table);
        let pool = pool_for(table, settings.set)?;
        let source = source(table, &pool);
        let [a, b] = table.players.as_slice() else {
            return Err(format!(
                "a duel needs exactly two players, e.g. --players alice,bob (got {})",
                table.players.len()
            ));
        };
        let cast = Cast::table(store, &[a, b], table.host()).await?;
        let default = Timing::default();
        let timing = Timing {
            turn_ms: table.turn_ms.unwrap_or(default.turn_ms),
            challenge_ms: table.challenge_ms.unwrap_or(default.challenge_ms),
            guess_bonus_ms: table.guess_bonus_ms.unwrap_or(default.guess_bonus_ms),
        };
        let setup = duel_setup(
            &cast,
            source,
            seed,
            table.advantage.as_deref(),
            settings,
            timing,
        )?;
        Ok((setup.into(), cast))
    }

    fn clocks(after: &crate::scoreboard::After, names: &[String]) -> Vec<String> {
        super::replay_clocks(after, names)
    }

    fn scores(after: &crate::scoreboard::After, names: &[String]) -> Vec<String> {
        crate::scoreboard::by_seat(after, names, "tickets", "tickets")
    }
}

/// The duel's words, for the family's front.
fn grammar(
    word: &str,
    rest: &str,
    named: Option<Actor>,
    view: &AnyView,
    cast: &Cast,
    narrator: &Narrator,
) -> Result<(Actor, AnyAction), String> {
    match view {
        AnyView::ZendoDuel(v) => duel_command(word, rest, named, v, cast, narrator),
        _ => Err("this match is not Zendo".into()),
    }
}

/// The help at the terminal: the block of docs/games/duel.md under "At the terminal".
pub fn duel_help() -> &'static str {
    crate::help_from_docs(include_str!("../../../../../docs/games/duel.md"))
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

/// A Duel move as the action the runtime takes.
fn duel_move(m: DuelMove) -> AnyAction {
    AnyAction::ZendoDuel(Action::Move(m))
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
    let host = || cast.host_actor();
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
        Ok((by(&turn_player)?, duel_move(m)))
    };
    let player = |m: &ZendoMove| match m {
        ZendoMove::ChooseStarter { .. } => Ok(Actor::Player(v.players[v.advantage])),
        _ => turn_player(),
    };
    if let Some(shared) = shared_command((word, rest), named, cast, &player) {
        return shared.map(|(actor, m)| (actor, duel_move(m.into())));
    }
    match (word, rest) {
        ("", _) => Err("say what, after the name: e.g. `alice: koan 1^ 2>`".into()),
        ("koan", text) => {
            let (koan, mode) = read_structure_and_mode(text, v.settings.set)?;
            play(DuelMove::Build { koan, mode })
        }
        ("guess", text) => play(DuelMove::Guess {
            pattern: read_guess(text, v.settings.set)?,
        }),
        ("skip", _) => play(DuelMove::Skip),
        ("end", "match" | "game") => Ok((by(&host)?, AnyAction::Common(Common::End))),
        ("end", "") => match named {
            Some(actor @ Actor::Host(_)) => Ok((actor, AnyAction::Common(Common::End))),
            Some(actor) => Ok((actor, duel_move(ZendoMove::EndTurn.into()))),
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
            _ => play(ZendoMove::EndTurn.into()),
        },
        ("answer", "") => Err("answer `obeys`, `not` or `pass`, e.g. `bob: answer obeys`".into()),
        ("answer", text) => answer(named, text.parse()?, &a, &b),
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
        Some(actor) => Ok((actor, duel_move(DuelMove::Answer { answer }))),
        None => Err(format!(
            "say who answers: `{a}: answer obeys` or `{b}: answer not` (both players answer \
             a challenge)"
        )),
    }
}
