//! Zendo practice at the terminal: one player against the umpire. Its grammar, its
//! help, its setup; the front is the family's ([`super::ZendoFront`]).

use super::{Source, ZendoFront, open_with, pool_for, shared_command, source, zendo_settings};
use crate::args::{NoArgs, TableArgs, check_limits};
use crate::narrate::zendo::{Narrator, read_guess, read_structure_and_mode};
use crate::rules::zendo::practice::{NO_CHALLENGE, NO_TURNS};
use crate::rules::zendo::{Mode, PracticeMove, PracticeSetup, PracticeView, Settings, ZendoMove};
use crate::rules::{Action, Actor};
use crate::runtime::{AnyAction, AnySetup, AnyView};
use crate::store::Store;
use crate::{Cast, GameFront, Terminal, YOU};

/// Practice at the terminal.
pub struct Front;

impl Terminal for Front {
    const NAME: &'static str = "practice";
    const ALIASES: &'static [(&'static str, &'static str)] =
        &[("zendo", "Zendo: solo practice, or a duel with --duel.")];
    const ABOUT: &'static str = "Zendo solo practice.";
    const DEFAULT: bool = true;
    type Args = NoArgs;
    type Commands = crate::commands::NoCommands;
    type Logged = super::logged::Log;
    type Bench = crate::commands::NoCommands;

    fn front(cast: &Cast, view: &AnyView) -> Box<dyn GameFront> {
        Box::new(ZendoFront::new(cast, view, help(), grammar))
    }

    fn help() -> &'static str {
        help()
    }

    fn check(table: &TableArgs, _own: &NoArgs) -> Result<(), String> {
        check_limits("zendo", &table.durations(), &[])?;
        if !table.players.is_empty() {
            return Err("--players is for a duel: `mondo play duel --players alice,bob`".into());
        }
        Ok(())
    }

    async fn setup(
        table: &TableArgs,
        _own: &NoArgs,
        store: &Store,
        seed: u64,
    ) -> Result<(AnySetup, Cast), String> {
        let settings = zendo_settings(table);
        let pool = pool_for(table, settings.set)?;
        let cast = Cast::solo_as(store, table.player.as_deref()).await?;
        let mut setup = practice_setup(source(table, &pool), seed, settings)?;
        setup.player = cast.me();
        Ok((setup.into(), cast))
    }

    fn scores(after: &crate::scoreboard::After, _names: &[String]) -> Vec<String> {
        let Some(s) = after.spectator.get("score") else {
            return Vec::new();
        };
        let n = |k: &str| s.get(k).and_then(serde_json::Value::as_u64).unwrap_or(0);
        vec![format!(
            "score: {} structures built, {} guesses judged",
            n("koans"),
            n("guesses")
        )]
    }
}

/// Practice's words, for the family's front.
fn grammar(
    word: &str,
    rest: &str,
    named: Option<Actor>,
    view: &AnyView,
    cast: &Cast,
    _narrator: &Narrator,
) -> Result<(Actor, AnyAction), String> {
    match view {
        AnyView::ZendoPractice(v) => practice_command(word, rest, named, v, cast),
        _ => Err("this match is not Zendo".into()),
    }
}

/// The help at the terminal: the block of docs/games/practice.md under "At the terminal".
pub fn help() -> &'static str {
    crate::help_from_docs(include_str!("../../../../../docs/games/practice.md"))
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

/// A practice move as the action the runtime takes.
fn practice_move(m: PracticeMove) -> AnyAction {
    AnyAction::ZendoPractice(Action::Move(m))
}

/// A command of solo practice: always the player's (a host's `disallow`/`end` aside).
fn practice_command(
    word: &str,
    rest: &str,
    named: Option<Actor>,
    v: &PracticeView,
    cast: &Cast,
) -> Result<(Actor, AnyAction), String> {
    let me = named.unwrap_or(Actor::Player(cast.me()));
    let play = |m: PracticeMove| Ok((me, practice_move(m)));
    if let ("skip" | "pass" | "start", _) = (word, rest) {
        return Err(NO_TURNS.into());
    }
    if let Some(shared) = shared_command((word, rest), named, cast, &|_| Ok(me)) {
        return match shared? {
            (_, ZendoMove::EndTurn | ZendoMove::ChooseStarter { .. }) => Err(NO_TURNS.into()),
            (actor, m) => Ok((actor, practice_move(m.into()))),
        };
    }
    match (word, rest) {
        ("koan", text) => match read_structure_and_mode(text, v.settings.set)? {
            (_, Mode::Challenge) => Err(NO_CHALLENGE.into()),
            (koan, Mode::Observe) => play(PracticeMove::Build { koan }),
        },
        ("guess", text) => play(PracticeMove::Guess {
            pattern: read_guess(text, v.settings.set)?,
        }),
        ("answer", _) => Err(NO_CHALLENGE.into()),
        _ => Err(format!("`{word}` is not a command; `help` lists them")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::zendo::Practice;
    use crate::rules::zendo::testing::*;
    use crate::rules::{Game, Viewer};
    use crate::runtime::Common;

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
        ] {
            let e = practice_command(word, rest, None, &v, &Cast::solo()).err();
            assert_eq!(e.as_deref(), Some(expected), "{word} {rest}");
        }
        assert!(practice_command("koan", "1^ 1^", None, &v, &Cast::solo()).is_ok());
        // The session reads pause and resume; the front refuses them.
        let front = Front::front(&Cast::solo(), &AnyView::ZendoPractice(v.clone()));
        for action in [Common::Pause, Common::Resume] {
            assert_eq!(front.refuses(action), Some(super::super::NO_CLOCK));
        }
        assert_eq!(front.refuses(Common::Resign), None);
        assert!(practice_command("koan", "1^ 1^ observe", None, &v, &Cast::solo()).is_ok());
    }

    fn practice_setup_for_tests() -> PracticeSetup {
        crate::rules::zendo::testing::practice_setup(parsed("some piece points up"))
    }
}
