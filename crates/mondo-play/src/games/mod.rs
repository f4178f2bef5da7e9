//! Each game's terminal front, in its own folder (the path the registry gives it:
//! `games::<path>::Front`, implementing [`Terminal`]); the registry's list makes the
//! dispatch over every game here, so the session and `mondo play` name no game.

// Each game's module here (`pub mod <folder>;`), from the registry's lines marked `mod`.
crate::registry::game_modules!();

use super::args::TableArgs;
use super::commands::{Commands, not_ours};
use super::logged::{At, Author, Logged, Pictured};
use super::rehearsal::{Rehearsal, Rehearse};
use super::{Cast, GameFront, Terminal};
use crate::rules::GameKind;
use crate::runtime::{AnySetup, AnyView};
use crate::store::Store;
use clap::builder::PossibleValue;
use serde_json::Value;
use std::process::ExitCode;

/// Every game's `<Front as Terminal>::$assoc` (a set of subcommands, [`Commands`]) as
/// one enum, which a command line flattens among its own subcommands.
macro_rules! flattened {
    ($(#[$doc:meta])* $name:ident = $assoc:ident: $($kind:ident => $($path:ident)::+),+) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub enum $name {
            $($kind(<$($path)::+::Front as Terminal>::$assoc),)+
        }

        impl $name {
            /// Runs the command; its exit status.
            pub fn run(self) -> std::process::ExitCode {
                match self {
                    $($name::$kind(c) => Commands::run(c),)+
                }
            }
        }

        impl clap::FromArgMatches for $name {
            fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
                let name = m.subcommand_name().unwrap_or_default();
                $(
                    if <<$($path)::+::Front as Terminal>::$assoc as clap::Subcommand>::has_subcommand(name) {
                        let c = <<$($path)::+::Front as Terminal>::$assoc as clap::FromArgMatches>::from_arg_matches(m)?;
                        return Ok($name::$kind(c));
                    }
                )+
                Err(not_ours(m))
            }

            fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
                *self = Self::from_arg_matches(m)?;
                Ok(())
            }
        }

        impl clap::Subcommand for $name {
            fn augment_subcommands(cmd: clap::Command) -> clap::Command {
                $(let cmd = <<$($path)::+::Front as Terminal>::$assoc as clap::Subcommand>::augment_subcommands(cmd);)+
                cmd
            }

            fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
                $(let cmd = <<$($path)::+::Front as Terminal>::$assoc as clap::Subcommand>::augment_subcommands_for_update(cmd);)+
                cmd
            }

            fn has_subcommand(name: &str) -> bool {
                false $(|| <<$($path)::+::Front as Terminal>::$assoc as clap::Subcommand>::has_subcommand(name))+
            }
        }
    };
}

macro_rules! terminal {
    ($($kind:ident => $($path:ident)::+ ($name:literal, $title:literal)),+ $(,)?) => {
        /// Every game's own `mondo play` options, one parser for all.
        #[derive(Debug, clap::Args)]
        #[allow(non_snake_case)]
        pub struct GameArgs {
            $(
                #[command(flatten)]
                pub $kind: <$($path)::+::Front as Terminal>::Args,
            )+
        }

        flattened! {
            /// Every game's own `mondo` subcommands ([`Terminal::Commands`]), as one: the
            /// command line flattens it among its own.
            GameCommand = Commands: $($kind => $($path)::+),+
        }

        flattened! {
            /// Every game's own `mondo bench` areas ([`Terminal::Bench`]), as one: `mondo
            /// bench` flattens it among the shared areas.
            GameBench = Bench: $($kind => $($path)::+),+
        }

        /// The front of a match, by its view's game.
        pub fn front_for(cast: &Cast, view: &AnyView) -> Box<dyn GameFront> {
            match view {
                $(AnyView::$kind(_) => <$($path)::+::Front as Terminal>::front(cast, view),)+
            }
        }

        /// Every game as `mondo play` names it: its name, its other names, what it is,
        /// whether it is the default.
        fn every() -> Vec<Named> {
            vec![$((
                GameKind::$kind,
                <$($path)::+::Front as Terminal>::NAME,
                <$($path)::+::Front as Terminal>::ALIASES,
                <$($path)::+::Front as Terminal>::ABOUT,
                <$($path)::+::Front as Terminal>::DEFAULT,
            ),)+]
        }

        /// The game whose own option asks for it (`--duel`), and that option.
        fn asked(args: &GameArgs) -> Option<(GameKind, &'static str)> {
            None$(.or_else(|| {
                <$($path)::+::Front as Terminal>::asked(&args.$kind).map(|o| (GameKind::$kind, o))
            }))+
        }

        /// How game `kind` is played at random by tests (its [`Rehearse`]).
        pub fn rehearsal(kind: GameKind) -> Rehearsal {
            match kind {
                $(GameKind::$kind => Rehearsal {
                    players: <$($path)::+::Front as Rehearse>::PLAYERS,
                    setup: <$($path)::+::Front as Rehearse>::setup,
                    player: <$($path)::+::Front as Rehearse>::player,
                },)+
            }
        }

        /// Game `kind`'s AI for a seat ([`Terminal::ai`]).
        pub fn ai(
            kind: GameKind,
            level: crate::student::Level,
            seed: u64,
        ) -> Option<Box<dyn super::machine::SeatAi>> {
            match kind {
                $(GameKind::$kind => <$($path)::+::Front as Terminal>::ai(level, seed),)+
            }
        }

        /// Game `kind`'s clocks after a step ([`Terminal::clocks`]).
        pub fn clocks(after: &super::scoreboard::After, names: &[String]) -> Vec<String> {
            match after.kind {
                $(GameKind::$kind => <$($path)::+::Front as Terminal>::clocks(after, names),)+
            }
        }

        /// Game `kind`'s running scores after a step ([`Terminal::scores`]).
        pub fn scores(after: &super::scoreboard::After, names: &[String]) -> Vec<String> {
            match after.kind {
                $(GameKind::$kind => <$($path)::+::Front as Terminal>::scores(after, names),)+
            }
        }

        /// Game `kind`'s AI matches for `mondo bench ai --game` ([`Terminal::arena`]).
        fn arena(
            kind: GameKind,
            plus: bool,
        ) -> Option<fn(usize, u64, bool) -> std::process::ExitCode> {
            match kind {
                $(GameKind::$kind => <$($path)::+::Front as Terminal>::arena(plus),)+
            }
        }

        /// Who made game `kind`'s own event `body` ([`Logged::author`]).
        pub fn author(
            kind: GameKind,
            body: &Value,
            setup: &Value,
            earlier: &[Value],
        ) -> Option<Author> {
            match kind {
                $(GameKind::$kind => <<$($path)::+::Front as Terminal>::Logged as Logged>::author(body, setup, earlier),)+
            }
        }

        /// Game `kind`'s name as the setup of a match (its first event, `created`) plays it.
        pub fn title(kind: GameKind, created: &Value) -> String {
            match kind {
                $(GameKind::$kind => <<$($path)::+::Front as Terminal>::Logged as Logged>::title(kind.title(), created),)+
            }
        }

        /// What the replay page says of game `kind`'s setup ([`Logged::opening`]).
        pub fn opening(
            kind: GameKind,
            created: &Value,
            who: &dyn Fn(&str) -> Option<String>,
        ) -> Vec<String> {
            match kind {
                $(GameKind::$kind => <<$($path)::+::Front as Terminal>::Logged as Logged>::opening(created, who),)+
            }
        }

        /// The picture of one of game `kind`'s things ([`Logged::picture`]).
        pub fn picture(kind: GameKind, at: At<'_>) -> Option<Pictured> {
            match kind {
                $(GameKind::$kind => <<$($path)::+::Front as Terminal>::Logged as Logged>::picture(at),)+
            }
        }

        /// What a match of game `kind` hid, from its log ([`Logged::secrets`]).
        pub fn secrets(kind: GameKind, bodies: &[Value]) -> Vec<(String, String)> {
            match kind {
                $(GameKind::$kind => <<$($path)::+::Front as Terminal>::Logged as Logged>::secrets(bodies),)+
            }
        }

        /// A game's help at the terminal.
        pub fn help(kind: GameKind) -> &'static str {
            match kind {
                $(GameKind::$kind => <$($path)::+::Front as Terminal>::help(),)+
            }
        }

        /// Checks a command line for game `kind` before anything is opened.
        pub fn check(kind: GameKind, table: &TableArgs, args: &GameArgs) -> Result<(), String> {
            match kind {
                $(GameKind::$kind => <$($path)::+::Front as Terminal>::check(table, &args.$kind),)+
            }
        }

        /// A new match of game `kind`: its setup and who plays it.
        pub async fn setup(
            kind: GameKind,
            table: &TableArgs,
            args: &GameArgs,
            store: &Store,
            seed: u64,
        ) -> Result<(AnySetup, Cast), String> {
            match kind {
                $(GameKind::$kind => {
                    <$($path)::+::Front as Terminal>::setup(table, &args.$kind, store, seed).await
                })+
            }
        }
    };
}

crate::registry::for_each_game!(terminal);

/// A game as `mondo play` names it: its kind, its name, its other names (each with
/// what it is), what it is, whether it is the default.
type Named = (
    GameKind,
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
    bool,
);

/// The names `mondo play GAME` takes, each with what it is.
pub fn names() -> clap::builder::PossibleValuesParser {
    let mut values = Vec::new();
    for (_, name, aliases, about, _) in every() {
        for (alias, about) in aliases {
            values.push(PossibleValue::new(*alias).help(*about));
        }
        values.push(PossibleValue::new(name).help(about));
    }
    clap::builder::PossibleValuesParser::new(values)
}

/// The name `mondo play` takes when no game is named.
pub fn default_name() -> &'static str {
    every()
        .into_iter()
        .find(|g| g.4)
        .map_or("", |(_, name, aliases, _, _)| {
            aliases.first().map_or(name, |a| a.0)
        })
}

/// The game a command line asks for: the one named (or the default), unless the
/// default is named by another of its names (or not at all) and another game's own
/// option asks for that game (`mondo play --duel`).
pub fn chosen(name: &str, args: &GameArgs) -> Result<GameKind, String> {
    let all = every();
    let (kind, by_name, default) = all
        .iter()
        .find_map(|(kind, n, aliases, _, default)| {
            if *n == name {
                Some((*kind, true, *default))
            } else if aliases.iter().any(|(a, _)| *a == name) {
                Some((*kind, false, *default))
            } else {
                None
            }
        })
        .ok_or_else(|| format!("`{name}` is not a game here"))?;
    match asked(args) {
        Some((other, option)) if default && other != kind => {
            if by_name {
                let other_name = all.iter().find(|g| g.0 == other).map_or("", |g| g.1);
                Err(format!(
                    "{name} is played alone: leave out {option}, or `mondo play {other_name}`"
                ))
            } else {
                Ok(other)
            }
        }
        _ => Ok(kind),
    }
}

/// `mondo bench ai --game GAME [--plus]`: the AI matches of the game named (as `mondo
/// play` names it, or by its stored name; any case), `matches` per pairing of levels
/// from seed `seed`, in JSON with `json`; or why not (exit status 2).
pub fn bench_ai(game: &str, plus: bool, matches: usize, seed: u64, json: bool) -> ExitCode {
    let given = game.trim().to_ascii_lowercase();
    let all = every();
    let named = all
        .iter()
        .find(|(kind, name, ..)| *name == given || kind.name() == given);
    if let Some(run) = named.and_then(|(kind, ..)| arena(*kind, plus)) {
        return run(matches, seed, json);
    }
    // Who has an arena (of Plus matches, with `--plus`), as `mondo play` names them.
    let having = |plus: bool| -> Vec<&Named> {
        all.iter()
            .filter(|(kind, ..)| arena(*kind, plus).is_some())
            .collect()
    };
    if plus {
        let plus: Vec<String> = having(true)
            .iter()
            .map(|(kind, name, ..)| format!("{}'s (`--game {name} --plus`)", kind.title()))
            .collect();
        eprintln!("error: `--plus` is {}, not {given}'s", plus.join(" or "));
    } else {
        let names: Vec<&str> = having(false).iter().map(|g| g.1).collect();
        eprintln!(
            "error: `--game {given}`: the games whose AI this bench plays are: {} (and zendo, \
             without --game)",
            names.join(", ")
        );
    }
    ExitCode::from(2)
}
