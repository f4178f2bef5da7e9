//! The games, one line each: its kind (as stored and dispatched on), its module path
//! (the same under every layer: `rules::<path>`, `bot::games::<path>`, ...), its stored
//! name (never changed once a match is written with it) and its title.
//!
//! Each layer expands the list with a macro of its own, which names only that layer's
//! types: `rules::kind` makes [`crate::rules::GameKind`], the runtime its `Any*` enums
//! over each game's `rules::<path>::Rules`. Adding a game is its folders and one line
//! here.

/// Calls `$then! { KIND => path::to::game ("stored-name", "Title"), ... }` with every
/// game, in the order games are listed to players.
macro_rules! for_each_game {
    ($then:ident) => {
        $then! {
            // Zendo Duel, the Death Match: two players, tickets, clocks.
            ZendoDuel => zendo::duel ("zendo-duel", "Zendo Duel"),
            // One player against the umpire, no clock.
            ZendoPractice => zendo::practice ("zendo-practice", "Zendo practice"),
            // Zendo Triple: two players, three hidden arrows patterns, first to two.
            ZendoTriple => zendo::triple ("zendo-triple", "Zendo Triple"),
            // Pattern Assembly (and Plus): the memory race, two players or solo practice.
            Assembly => assembly ("pattern-assembly", "Pattern Assembly"),
            // Zendo Classic: the Master (the umpire, or a host's rule) and 2 to 8 students.
            ZendoClassic => zendo::classic ("zendo-classic", "Zendo Classic"),
            // Logical Bluffs: statements about a hidden 4 x 4 layout, checked by machine.
            Bluffs => bluffs ("logical-bluffs", "Logical Bluffs"),
        }
    };
}

pub(crate) use for_each_game;
