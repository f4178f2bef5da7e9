//! The games, one line each: its kind (as stored and dispatched on), its module path
//! (the same under every layer: `rules::<path>`, `bot::games::<path>`, ...), its stored
//! name (never changed once a match is written with it) and its title.
//!
//! Each layer expands the list with a macro of its own, which names only that layer's
//! types: `rules::kind` makes [`crate::rules::GameKind`], the runtime its `Any*` enums
//! over each game's `rules::<path>::Rules`. The game's modules are declared from here
//! too ([`game_modules!`]): a line marked `mod` declares the first part of its path
//! (its folder) in every layer that holds games (`rules`, `narrate`, `bot::games`,
//! `play::games`). A family of games sharing a folder (Zendo's modes) marks one of its
//! lines; each other game marks its own. Adding a game is its folders and one line
//! here (see `docs/developers.md`, "Adding a game").

/// Calls `$then! { KIND => path::to::game ("stored-name", "Title"), ... }` with every
/// game, in the order games are listed to players. (With `@mods`, the list as written,
/// `mod` marks and all: what [`game_modules!`] reads.)
///
/// Exported under a hidden name and re-exported here, so every crate calls it as
/// `mondo_rules::registry::for_each_game!` (or through `mondo::registry`).
#[doc(hidden)]
#[macro_export]
macro_rules! __for_each_game {
    (@with [$($how:tt)+]) => {
        $crate::registry::for_each_game! { $($how)+ [ ]
            // Zendo Duel, the Death Match: two players, tickets, clocks. Its line
            // declares the `zendo` folder, which the other Zendo modes share.
            ZendoDuel => mod zendo::duel ("zendo-duel", "Zendo Duel"),
            // One player against the umpire, no clock.
            ZendoPractice => zendo::practice ("zendo-practice", "Zendo practice"),
            // Zendo Triple: two players, three hidden arrows patterns, first to two.
            ZendoTriple => zendo::triple ("zendo-triple", "Zendo Triple"),
            // Pattern Assembly (and Plus): the memory race, two players or solo practice.
            Assembly => mod assembly ("pattern-assembly", "Pattern Assembly"),
            // Zendo Classic: the Master (the umpire, or a host's rule) and 2 to 8 students.
            ZendoClassic => zendo::classic ("zendo-classic", "Zendo Classic"),
            // Logical Bluffs: statements about a hidden 4 x 4 layout, checked by machine.
            Bluffs => mod bluffs ("logical-bluffs", "Logical Bluffs"),
        }
    };
    // The list for a layer's macro: the `mod` marks taken out.
    ($then:ident [$($done:tt)*]) => {
        $then! { $($done)* }
    };
    ($then:ident [$($done:tt)*]
        $kind:ident => mod $($path:ident)::+ ($name:literal, $title:literal), $($rest:tt)*
    ) => {
        $crate::registry::for_each_game! { $then [$($done)* $kind => $($path)::+ ($name, $title),]
            $($rest)*
        }
    };
    ($then:ident [$($done:tt)*]
        $kind:ident => $($path:ident)::+ ($name:literal, $title:literal), $($rest:tt)*
    ) => {
        $crate::registry::for_each_game! { $then [$($done)* $kind => $($path)::+ ($name, $title),]
            $($rest)*
        }
    };
    // The game modules: `pub mod <folder>;` for each line marked `mod`.
    (@mods [ ]) => {};
    (@mods [ ] $kind:ident => mod $folder:ident $(:: $sub:ident)* ($name:literal, $title:literal),
        $($rest:tt)*
    ) => {
        pub mod $folder;
        $crate::registry::for_each_game! { @mods [ ] $($rest)* }
    };
    (@mods [ ] $kind:ident => $($path:ident)::+ ($name:literal, $title:literal), $($rest:tt)*) => {
        $crate::registry::for_each_game! { @mods [ ] $($rest)* }
    };
    ($then:ident) => {
        $crate::registry::for_each_game! { @with [$then] }
    };
}

/// Declares each game's module of the layer whose `mod.rs` calls it (`rules`,
/// `narrate`, `bot::games`, `play::games`): `pub mod <folder>;` for each registry line
/// marked `mod`. A game without its folder in a layer fails the build there ("file
/// not found for module"), naming the file to create.
#[doc(hidden)]
#[macro_export]
macro_rules! __game_modules {
    () => {
        $crate::registry::for_each_game! { @with [@mods] }
    };
}

pub use crate::{__for_each_game as for_each_game, __game_modules as game_modules};
