//! Each game's players' page (`docs/games/`), for `/help`: the registry's list, so
//! no game is named here.

use crate::rules::GameKind;

macro_rules! pages {
    ($($kind:ident => $($path:ident)::+ ($name:literal, $title:literal)),+ $(,)?) => {
        /// Every game with its players' page, in the registry's order.
        pub fn pages() -> Vec<(GameKind, &'static str)> {
            vec![$((GameKind::$kind, super::$($path)::+::PAGE),)+]
        }
    };
}

crate::registry::for_each_game!(pages);
