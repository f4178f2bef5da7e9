//! Which game a match plays: stored with every match (`matches.kind`), and what the
//! runtime, the store and the fronts dispatch on.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

macro_rules! kinds {
    ($($kind:ident => $($path:ident)::+ ($name:literal, $title:literal)),+ $(,)?) => {
        /// Every game the umpire runs (one line each in the registry, `crates/mondo-rules/src/registry.rs`).
        /// The stored name ([`GameKind::name`]) never changes once a match has been
        /// written with it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(into = "String", try_from = "String")]
        pub enum GameKind {
            $($kind,)+
        }

        impl GameKind {
            /// Every kind, in the order games are listed to players.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$kind,)+];

            /// The stored name.
            pub const fn name(self) -> &'static str {
                match self {
                    $(GameKind::$kind => $name,)+
                }
            }

            /// How players call it.
            pub const fn title(self) -> &'static str {
                match self {
                    $(GameKind::$kind => $title,)+
                }
            }
        }
    };
}

crate::registry::for_each_game!(kinds);

impl GameKind {
    /// The stored names of every kind.
    pub fn names() -> impl Iterator<Item = &'static str> {
        GameKind::ALL.iter().map(|k| k.name())
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a game's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{given}` is not a game: the games are {}", GameKind::names().collect::<Vec<_>>().join(", "))]
pub struct UnknownGame {
    pub given: String,
}

impl FromStr for GameKind {
    type Err = UnknownGame;
    /// The stored name, any case.
    fn from_str(s: &str) -> Result<GameKind, UnknownGame> {
        let t = s.trim();
        GameKind::ALL
            .iter()
            .copied()
            .find(|k| k.name().eq_ignore_ascii_case(t))
            .ok_or_else(|| UnknownGame {
                given: t.to_string(),
            })
    }
}

impl From<GameKind> for String {
    fn from(kind: GameKind) -> String {
        kind.name().to_string()
    }
}

impl TryFrom<String> for GameKind {
    type Error = UnknownGame;
    fn try_from(s: String) -> Result<GameKind, UnknownGame> {
        s.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_through_their_stored_names() {
        for kind in GameKind::ALL {
            assert_eq!(kind.to_string().parse::<GameKind>(), Ok(*kind));
            let json = serde_json::to_string(kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.name()));
            assert_eq!(serde_json::from_str::<GameKind>(&json).unwrap(), *kind);
        }
        // The names already in databases.
        assert_eq!("zendo-duel".parse(), Ok(GameKind::ZendoDuel));
        assert_eq!("Zendo-Practice".parse(), Ok(GameKind::ZendoPractice));
    }

    #[test]
    fn an_unknown_name_lists_the_games() {
        let e = "chess".parse::<GameKind>().unwrap_err();
        assert!(e.to_string().contains("`chess`"), "{e}");
        assert!(e.to_string().contains("zendo-duel"), "{e}");
    }
}
