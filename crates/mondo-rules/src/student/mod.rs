//! Mondo's AI players: a player of a game made by machine, seeing only what a player
//! sees, one folder per game family that has one (see docs/ai.md).
//!
//! Every game's AI but Zendo's is an [`Ai`]: the one small interface the fronts' seat
//! plumbing drives (the same on Discord, at the terminal and in `mondo bench ai`).
//! An AI is given its own player's view and nothing else: the view type its game's
//! fronts show that player (`Viewer::Player`), which holds the public table and the
//! seat's own private knowledge (a Bluffs player's own tiles, an Assembly player's own
//! pending answer), never the match's state, so it cannot read a secret: the compiler
//! holds it. Like the rules, an AI is pure: it never reads a clock (the caller passes
//! `now`, the game clock's milliseconds), does no I/O, and draws every random choice
//! from a generator seeded when it is made.

pub mod arena;
pub mod assembly;
pub mod bluffs;
pub mod zendo;

/// The strength levels every game's AI has, weakest first, with the same names
/// (`beginner`, `player`, `expert`: the reserved seat names `ai-beginner`... of
/// `rules::fair`, whose index is the level's). Each game reads a level in its own way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Beginner,
    Player,
    Expert,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Beginner, Level::Player, Level::Expert];

    pub const fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Player => "player",
            Level::Expert => "expert",
        }
    }

    pub fn parse(text: &str) -> Option<Level> {
        let t = text.trim().to_ascii_lowercase();
        Level::ALL.into_iter().find(|l| l.name() == t)
    }

    /// Its rank, 1 the weakest.
    pub fn rank(self) -> usize {
        Level::ALL.iter().position(|l| *l == self).unwrap_or(0) + 1
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// `h` and `x` stirred into one seed (splitmix64's finaliser): an AI whose choices are
/// drawn from a generator seeded by its seat's seed mixed with what the choice is made
/// on decides alike however often it is asked, and after a restart.
pub(crate) fn mix(h: u64, x: u64) -> u64 {
    let mut z = (h ^ x).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Milliseconds of the game clock.
pub type Millis = u64;

/// What an AI will do next: a move of its game, and how long it waits before making it
/// (its think delay, in game-clock milliseconds from the `now` it was asked at; 0: at
/// once). The caller waits on the game clock, then makes the move as the seat's
/// player; if the view changes meanwhile it asks again and the new plan replaces this
/// one.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan<M> {
    pub action: M,
    pub delay: Millis,
}

impl<M> Plan<M> {
    /// `action` once the game clock reaches `at` (at once when `at` is past).
    pub fn at(action: M, at: Millis, now: Millis) -> Plan<M> {
        Plan {
            action,
            delay: at.saturating_sub(now),
        }
    }
}

/// An AI player of one game, for one seat.
///
/// The caller (the seat's driver) asks [`Ai::next`] with every view its player gets,
/// in order (each change of the match, as that player sees it; after a restart, the
/// view of the match as it is then), and when a plan's delay has run out on the game
/// clock it makes the plan's move through the runtime like any player's, refused as
/// anyone's would be. Asked again with the same view (after a refusal, or a plan it
/// made), the AI may plan the same move again: the caller asks anew only on a newer
/// view when a move was refused.
pub trait Ai: Send {
    /// The game's view for a player (its fronts' own type).
    type View;
    /// The game's own move.
    type Move;
    /// Looks at its player's view at game time `now` (remembering what it wants of
    /// it) and says its next move, if it has one now.
    fn next(&mut self, view: &Self::View, now: Millis) -> Option<Plan<Self::Move>>;
    /// Its move was taken by the match at `now` (the caller says so after the runtime
    /// accepted it; a refused move is not told).
    fn made(&mut self, _action: &Self::Move, _now: Millis) {}
    /// A view its player had at game time `at`, before this AI was seated: when a
    /// seat is taken up again (a restart), the caller first gives it every view of its
    /// player since the match began, in order (the match's log read back), then asks
    /// [`Ai::next`] as usual. An AI that takes in what each view tells it (as it does
    /// when asked) believes again what it believed before, and plays on as it would
    /// have; one that keeps nothing leaves this as it is.
    fn recall(&mut self, _view: &Self::View, _at: Millis) {}
}
