//! Logical Bluffs (docs/games/bluffs.md): the pure rules of a two-player match. No clock, no I/O: every request brings
//! `now`, deadlines come out as data ([`Bluffs::next_deadline`]), and the runtime
//! answers a passed deadline with [`Move::Tick`].
//!
//! This file is the rule book: [`Bluffs::decide`]
//! (`state + who + move + now -> events or Error`) first settles every deadline that
//! passed before `now`, then checks the move; [`Bluffs::fold`] is the only place the
//! state changes, so a match is the fold of its events ([`Bluffs::replay`]).
//! [`BluffsMatch`] (`game.rs`) makes it a [`crate::rules::Game`] for the runtime and the
//! fronts: the shared authority's checks, pause, host end and downtime, the ledger.
//!
//! # The rules, each with the test that holds it (in `tests.rs`)
//!
//! 1. A seeded 4 x 4 layout; each player privately knows `known_tiles` tiles
//!    (default 4), disjoint, random: `layout_and_known_tiles_are_seeded_private_and_disjoint`.
//! 2. Bluffing (3 min): a subset of 4-8 orthogonally connected tiles:
//!    `subset_must_be_4_to_8_connected_tiles`.
//! 3. ... sharing fewer than floor(size/2) tiles with the player's own previous
//!    subset (the opponent's does not matter): `subset_shares_less_than_half_with_own_previous`.
//! 4. ... and four statements, each passing the umpire's reading ([`judge`]: reads,
//!    at most 15 words, involves every tile, not always true or false, no region the
//!    subset lacks): `statements_must_read_and_pass_the_check`. Every statement is
//!    kept and shown in its English reading; one typed in notation is counted by that
//!    reading, and one whose reading is not plain English is refused:
//!    `notation_is_counted_and_shown_by_its_english_reading`.
//! 5. When both have bluffed, each learns privately which of theirs are true, +1 RP
//!    each: `true_statements_earn_rp_told_privately`.
//! 6. Claiming (90 s): both subsets and statements are shown; each player marks each
//!    opposing statement true or false, +2 RP per right mark, nothing revealed:
//!    `claiming_scores_right_marks_privately`.
//! 7. Reveal (30 s, private): buy tile reveals at 8 RP each, several if affordable, in
//!    one command or several; the opponent learns only how many:
//!    `reveals_cost_rp_and_the_opponent_learns_only_how_many`,
//!    `reveals_may_be_bought_in_several_commands`.
//! 8. Or guess the whole layout, with 150 s more once declared:
//!    `declaring_a_guess_gives_150_seconds_more`.
//! 9. A wrong guess loses all RP and the next round's reveal:
//!    `wrong_guess_loses_all_rp_and_the_next_reveal`.
//! 10. A right guess wins: `right_guess_wins`.
//! 11. Both right in the same Reveal: more RP wins, then earlier submission:
//!     `both_right_more_rp_then_earlier_submission_wins`.
//! 12. Reveal is not covered by reserve: who does nothing in time passes:
//!     `reveal_times_out_into_the_next_round`.
//! 13. 5 min of reserve time covers overruns in Bluffing and Claiming; running out
//!     loses (both at once: a draw): `reserve_covers_overruns_and_running_out_loses`.
//! 14. No Limit (once): for one round the subset may be any tiles, however many,
//!     connected or not, whatever it shares with the previous one (all three subset
//!     restrictions lifted); its statements are checked as always (`statement.rs`):
//!     `no_limit_lifts_all_three_subset_restrictions`.
//! 15. Smokescreen (once): one of your statements is hidden from the opponent, who
//!     cannot mark it: `smokescreen_hides_a_statement_from_the_opponent`.
//! 16. Detective (once, in Claiming): learn the truth of one opposing statement (not
//!     a smokescreened one); no RP for it, so it is not marked:
//!     `detective_tells_a_truth_and_earns_nothing_for_it`.
//! 17. Items are one-time: `items_are_one_time`.
//! 18. A player's view never shows the opponent's RP, the layout or the opponent's
//!     private tiles, and events reach only whom they may:
//!     `views_never_show_opponent_rp_layout_or_private_tiles`, `events_reach_only_their_audience`.
//! 19. A player may resign at any time; the opponent wins: `resigning_gives_the_opponent_the_win`.
//! 20. The state is the fold of its events: `replay_gives_the_same_state`.

mod game;
mod section;
mod statement;
#[cfg(test)]
mod tests;
mod umpire;
mod view;

pub use crate::rules::NoWork;
pub use game::{BluffsMatch, BluffsView, Deadline, PublicBluffs};
pub use section::BluffsConfig as Section;
pub use statement::judge;
pub use view::{OwnBluff, PlayerView, ShownBluff};

use crate::lang::tiles::{self, Cell, Colour, Layout, Subset};
use crate::rules::{Millis, PlayerId, Seat};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

crate::rules::game_types! {
    BluffsMatch: Bluffs, clocked: true, deadline: Deadline, work: NoWork,
    setup: Setup, moves: Move, events: EventKind::Created,
}

/// Statements per bluff.
pub const STATEMENTS: usize = 4;

/// Durations and costs; every one a host setting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Tiles each player knows at the start.
    pub known_tiles: usize,
    pub bluffing_ms: Millis,
    pub claiming_ms: Millis,
    pub reveal_ms: Millis,
    /// Added to the Reveal time for a player who declares a layout guess.
    pub guess_extra_ms: Millis,
    pub reserve_ms: Millis,
    pub rp_per_true: u32,
    pub rp_per_right_mark: u32,
    pub reveal_cost: u32,
    pub max_words: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            known_tiles: 4,
            bluffing_ms: 180_000,
            claiming_ms: 90_000,
            reveal_ms: 30_000,
            guess_extra_ms: 150_000,
            reserve_ms: 300_000,
            rp_per_true: 1,
            rp_per_right_mark: 2,
            reveal_cost: 8,
            max_words: tiles::MAX_WORDS,
        }
    }
}

/// Everything a match starts from: the seed fixes the layout and the known tiles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub players: [PlayerId; 2],
    pub seed: u64,
    #[serde(default)]
    pub settings: Settings,
}

/// Who asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Player(Seat),
    Umpire,
}

/// A player's moves, and the umpire's tick. Statement numbers are 1-4, as players
/// count them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "move", rename_all = "snake_case")]
pub enum Move {
    /// Bluffing: a subset (`A1-B1-A2-B2`) and four statements; optionally No Limit
    /// and a Smokescreen over one statement.
    Bluff {
        subset: String,
        statements: Vec<String>,
        #[serde(default)]
        no_limit: bool,
        #[serde(default)]
        smokescreen: Option<usize>,
    },
    /// Claiming, before marking: the Detective item on an opposing statement.
    Detect { statement: usize },
    /// Claiming: a mark per opposing statement; `None` exactly for a smokescreened
    /// or detected one.
    Claim { marks: Vec<Option<bool>> },
    /// Reveal: buy these tiles.
    Reveal { tiles: Vec<Cell> },
    /// Reveal: take the extra time to guess the layout.
    DeclareGuess,
    /// Reveal: the whole layout.
    Guess { layout: Layout },
    /// Reveal: do nothing this round.
    Pass,
    /// Any time: give up; the opponent wins.
    Resign,
    /// Umpire: settle the deadlines that passed.
    Tick,
}

/// Why a move is refused: what was wrong and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("the match is over")]
    Over,
    #[error("only the umpire calls time")]
    UmpireOnly,
    #[error("the umpire makes no moves but calling time")]
    NotForUmpire,
    #[error("that is for the {expected} phase; it is now {now}")]
    WrongPhase { expected: PhaseName, now: PhaseName },
    #[error("you have already {0} this round")]
    AlreadyDone(&'static str),
    #[error(transparent)]
    Setup(#[from] SetupProblem),
    #[error(transparent)]
    Subset(#[from] SubsetProblem),
    #[error("a bluff has exactly {STATEMENTS} statements; you gave {0}")]
    StatementCount(usize),
    #[error("statement {n} does not read: {message}")]
    Unreadable { n: usize, message: String },
    #[error("statement {n} is refused: {reason}")]
    Refused { n: usize, reason: String },
    #[error("there is no statement {0}: statements are numbered 1 to {STATEMENTS}")]
    NoSuchStatement(usize),
    #[error("you have already used your {0}; each item is used once")]
    ItemUsed(Item),
    #[error("statement {0} is smokescreened: it cannot be marked or detected")]
    Smokescreened(usize),
    #[error(transparent)]
    Marks(#[from] MarksProblem),
    #[error(transparent)]
    Reveal(#[from] RevealProblem),
    /// An event that does not fit the match (a corrupt log; never a player's doing).
    #[error("{0}")]
    Log(#[from] Misfit),
}

/// Why a setup is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupProblem {
    #[error(
        "each player knows at most 8 tiles (they are disjoint on 16); the setting asks for {0}"
    )]
    TooManyKnown(usize),
    #[error(
        "the setting {0} must be above 0 (a phase needs time, a reveal a price, a statement words)"
    )]
    Zero(&'static str),
    #[error("a duel needs two different players")]
    SamePlayer,
}

/// Why a bluff's subset is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SubsetProblem {
    /// It does not read, or is not 4 to 8 connected tiles (the board's words).
    #[error(transparent)]
    Notation(#[from] tiles::NotationError),
    #[error(
        "{subset} shares {shared} tiles with your previous subset {previous}; a subset of {} \
         tiles may share at most {} (fewer than half, rounded down), unless you use No Limit",
        .subset.len(),
        most_shared(.subset)
    )]
    SharesTooMuch {
        subset: Subset,
        previous: Subset,
        shared: usize,
    },
}

/// The most tiles a subset may share with the previous one (fewer than half, as said).
fn most_shared(subset: &Subset) -> usize {
    (subset.len() / 2).saturating_sub(1)
}

fn costs(count: &usize) -> &'static str {
    if *count == 1 {
        "reveal costs"
    } else {
        "reveals cost"
    }
}

/// Why a claim's marks are refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MarksProblem {
    #[error("there is no opposing bluff to mark")]
    NoBluff,
    #[error(
        "give {STATEMENTS} marks, one per opposing statement (none for a smokescreened or \
         detected one); you gave {0}"
    )]
    Count(usize),
    #[error("statement {0} is smokescreened: leave it unmarked")]
    Smokescreened(usize),
    #[error("statement {0} is detected (Detective earns no RP for it): leave it unmarked")]
    Detected(usize),
    #[error("mark statement {0} true or false")]
    Unmarked(usize),
}

/// Why buying reveals (or guessing the layout instead) is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RevealProblem {
    #[error(
        "you bought reveals this round: buy more, or pass (a layout guess is instead of \
         reveals, in a round of its own)"
    )]
    Bought,
    #[error("you declared a layout guess this round: guess, or pass")]
    Declared,
    #[error("a wrong layout guess last round bars you from revealing this round")]
    Barred,
    #[error("name at least one tile to reveal, or pass")]
    NoTile,
    #[error("{0} is listed twice")]
    Twice(Cell),
    #[error("you already know {0}")]
    Known(Cell),
    #[error(
        "{count} {} {cost} RP ({each} each); you have {rp}",
        costs(.count)
    )]
    TooDear {
        count: usize,
        cost: u32,
        each: u32,
        rp: u32,
    },
}

/// Why an event does not fit the match its log tells: a corrupt log.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Misfit {
    #[error("a Bluffs log starts with its created event")]
    NotCreatedFirst,
    #[error("a second created event")]
    CreatedAgain,
    #[error("seat {0} in a duel")]
    NoSuchSeat(u8),
}

/// The one-time items.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    NoLimit,
    Smokescreen,
    Detective,
}

impl std::fmt::Display for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Item::NoLimit => "No Limit",
            Item::Smokescreen => "Smokescreen",
            Item::Detective => "Detective",
        })
    }
}

/// Which items a player has used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Items {
    pub no_limit: bool,
    pub smokescreen: bool,
    pub detective: bool,
}

impl Items {
    fn used(&self, item: Item) -> bool {
        match item {
            Item::NoLimit => self.no_limit,
            Item::Smokescreen => self.smokescreen,
            Item::Detective => self.detective,
        }
    }

    fn mark(&mut self, item: Item) {
        match item {
            Item::NoLimit => self.no_limit = true,
            Item::Smokescreen => self.smokescreen = true,
            Item::Detective => self.detective = true,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PhaseName {
    Bluffing,
    Claiming,
    Reveal,
    Over,
}

impl std::fmt::Display for PhaseName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PhaseName::Bluffing => "Bluffing",
            PhaseName::Claiming => "Claiming",
            PhaseName::Reveal => "Reveal",
            PhaseName::Over => "Over",
        })
    }
}

/// How a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// Guessed the layout.
    Guessed,
    /// The opponent's reserve time ran out.
    OpponentOutOfTime,
    /// Both reserves ran out at the same moment: no winner.
    BothOutOfTime,
    /// The opponent resigned.
    Resigned,
    /// A host ended the match: no winner.
    HostEnded,
}

/// What happened, at `at`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub at: Millis,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// The match's events. Who may hear each: [`EventKind::audience`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EventKind {
    /// The first event: holds the seed, so the secrets (nobody hears it).
    Created { setup: Setup },
    /// A phase began; `deadline` is its public end (before reserve or guess time).
    PhaseBegan {
        round: u32,
        phase: PhaseName,
        deadline: Millis,
    },
    /// Public: someone submitted in Bluffing or Claiming (nothing of what).
    Submitted { seat: Seat, reserve_used: Millis },
    /// Private: the bluff as read, with the truth the umpire keeps until Bluffing ends.
    Bluffed {
        seat: Seat,
        subset: Subset,
        statements: Vec<String>,
        truths: Vec<bool>,
        no_limit: bool,
        smokescreen: Option<usize>,
    },
    /// Public, when Claiming begins: a bluff as the opponent sees it (a smokescreened
    /// statement is `None`).
    Shown {
        seat: Seat,
        subset: Subset,
        statements: Vec<Option<String>>,
    },
    /// Private: which of your statements are true, and the RP they earn.
    TruthTold {
        seat: Seat,
        truths: Vec<bool>,
        gained: u32,
    },
    /// Private: Detective on an opposing statement (1-4).
    Detected {
        seat: Seat,
        statement: usize,
        truth: bool,
    },
    /// Private: your marks.
    Marked {
        seat: Seat,
        marks: Vec<Option<bool>>,
    },
    /// Private, when Claiming ends: how many marks were right, and the RP.
    ClaimScored { seat: Seat, right: u32, gained: u32 },
    /// Private: bought tiles and their colours.
    Revealed {
        seat: Seat,
        tiles: Vec<(Cell, Colour)>,
        cost: u32,
    },
    /// Private: extra time to guess, until `until`.
    GuessDeclared { seat: Seat, until: Millis },
    /// Private: a layout guess, judged when Reveal ends.
    Guessed { seat: Seat, layout: Layout },
    /// Private: nothing this Reveal: the seat passed, or its Reveal time ran out
    /// (`time_up`; a log stored before it was kept reads as a pass).
    Passed {
        seat: Seat,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        time_up: bool,
    },
    /// Public, when Reveal ends: how many tiles each bought.
    RevealsCounted { counts: [u32; 2] },
    /// Private: a wrong guess: all RP lost, no reveal next round.
    GuessWrong { seat: Seat, lost: u32 },
    /// Public: the match is over; the layout is shown to all.
    /// `winner` is `None` for a draw (both out of time, or both right with equal RP
    /// in the same millisecond).
    Ended {
        winner: Option<Seat>,
        ending: Ending,
        layout: Layout,
        /// The fair-play rule's verdict (docs/ratings.md) when it does not let the
        /// ending stand: a side out of time that never acted, or idle in the round
        /// both ran out. Absent in matches stored before it was kept.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        judged: Option<crate::rules::fair::Verdict>,
    },
}

/// Who may hear an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    Everyone,
    Only(Seat),
    Nobody,
}

impl EventKind {
    /// Whether it changes what its player has: RP or known tiles (fronts then say the
    /// player's whole state again, to them).
    pub fn changes_own_state(&self) -> bool {
        matches!(
            self,
            EventKind::TruthTold { .. }
                | EventKind::ClaimScored { .. }
                | EventKind::Revealed { .. }
                | EventKind::GuessWrong { .. }
        )
    }

    pub fn audience(&self) -> Audience {
        use EventKind::*;
        match self {
            Created { .. } => Audience::Nobody,
            PhaseBegan { .. }
            | Submitted { .. }
            | Shown { .. }
            | RevealsCounted { .. }
            | Ended { .. } => Audience::Everyone,
            Bluffed { seat, .. }
            | TruthTold { seat, .. }
            | Detected { seat, .. }
            | Marked { seat, .. }
            | ClaimScored { seat, .. }
            | Revealed { seat, .. }
            | GuessDeclared { seat, .. }
            | Guessed { seat, .. }
            | Passed { seat, .. }
            | GuessWrong { seat, .. } => Audience::Only(*seat),
        }
    }
}

/// A bluff as the umpire keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bluff {
    pub subset: Subset,
    pub statements: Vec<String>,
    pub truths: Vec<bool>,
    pub no_limit: bool,
    pub smokescreen: Option<usize>,
}

/// Where a player is in the Reveal phase.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RevealState {
    Pending,
    /// Has bought reveals and can afford more: may buy more, or pass (a layout guess
    /// is instead of reveals).
    Revealing,
    Declared {
        until: Millis,
    },
    Guessed {
        layout: Layout,
        at: Millis,
    },
    Done,
}

/// A match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bluffs {
    setup: Setup,
    layout: Layout,
    /// What each player knows: their starting tiles, then bought ones.
    known: [Vec<Cell>; 2],
    rp: [u32; 2],
    reserve: [Millis; 2],
    items: [Items; 2],
    round: u32,
    phase: PhaseName,
    /// The phase's own end (before reserve or guess time).
    deadline: Millis,
    previous: [Option<Subset>; 2],
    bluffs: [Option<Bluff>; 2],
    marks: [Option<Vec<Option<bool>>>; 2],
    detected: [Option<usize>; 2],
    reveal: [RevealState; 2],
    bought: [u32; 2],
    /// How many tiles each bought in the last Reveal, once one has ended.
    counted: Option<[u32; 2]>,
    /// No reveal this round (a wrong guess last round).
    barred: [bool; 2],
    /// Barred next round.
    barring: [bool; 2],
    outcome: Option<(Option<Seat>, Ending)>,
}

const SEATS: [Seat; 2] = [Seat::FIRST, Seat::SECOND];

/// The seeded layout and each player's known tiles (disjoint).
pub fn deal(seed: u64, known_tiles: usize) -> (Layout, [Vec<Cell>; 2]) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut colours = [Colour::Red; tiles::cells::TILES];
    for c in colours.iter_mut() {
        *c = Colour::from_index(rng.random_range(0..4));
    }
    let mut cells: Vec<Cell> = Cell::all().collect();
    // Fisher-Yates: the first 2k cells, split between the players.
    for i in 0..cells.len() {
        let j = rng.random_range(i..cells.len());
        cells.swap(i, j);
    }
    let mut first: Vec<Cell> = cells[..known_tiles].to_vec();
    let mut second: Vec<Cell> = cells[known_tiles..2 * known_tiles].to_vec();
    first.sort();
    second.sort();
    (Layout(colours), [first, second])
}

impl Bluffs {
    /// The created event and the match it starts (Bluffing of round 1 from `now`).
    pub fn start(setup: Setup, now: Millis) -> Result<(Bluffs, Vec<Event>), Error> {
        if setup.settings.known_tiles * 2 > tiles::cells::TILES {
            return Err(SetupProblem::TooManyKnown(setup.settings.known_tiles).into());
        }
        let st = &setup.settings;
        for (name, value) in [
            ("bluffing_ms", st.bluffing_ms),
            ("claiming_ms", st.claiming_ms),
            ("reveal_ms", st.reveal_ms),
            ("reveal_cost", u64::from(st.reveal_cost)),
            ("max_words", st.max_words as u64),
        ] {
            if value == 0 {
                return Err(SetupProblem::Zero(name).into());
            }
        }
        if setup.players[0] == setup.players[1] {
            return Err(SetupProblem::SamePlayer.into());
        }
        let events = vec![
            Event {
                at: now,
                kind: EventKind::Created {
                    setup: setup.clone(),
                },
            },
            Event {
                at: now,
                kind: EventKind::PhaseBegan {
                    round: 1,
                    phase: PhaseName::Bluffing,
                    deadline: now + setup.settings.bluffing_ms,
                },
            },
        ];
        let game = Bluffs::replay(&events)?;
        Ok((game, events))
    }

    /// The match its log describes.
    pub fn replay(events: &[Event]) -> Result<Bluffs, Misfit> {
        let Some(Event {
            kind: EventKind::Created { setup },
            ..
        }) = events.first()
        else {
            return Err(Misfit::NotCreatedFirst);
        };
        let (layout, known) = deal(setup.seed, setup.settings.known_tiles);
        let mut game = Bluffs {
            setup: setup.clone(),
            layout,
            known,
            rp: [0; 2],
            reserve: [setup.settings.reserve_ms; 2],
            items: [Items::default(); 2],
            round: 0,
            phase: PhaseName::Bluffing,
            deadline: 0,
            previous: [None, None],
            bluffs: [None, None],
            marks: [None, None],
            detected: [None, None],
            reveal: [RevealState::Pending, RevealState::Pending],
            bought: [0; 2],
            counted: None,
            barred: [false; 2],
            barring: [false; 2],
            outcome: None,
        };
        for e in &events[1..] {
            game.fold(e)?;
        }
        Ok(game)
    }

    pub fn players(&self) -> [PlayerId; 2] {
        self.setup.players
    }
    pub fn settings(&self) -> &Settings {
        &self.setup.settings
    }
    pub fn phase(&self) -> PhaseName {
        self.phase
    }
    /// Whether `seat` did something of its own in the current round (a bluff, marks):
    /// a player who did not was idle when the round's time ran out.
    pub fn acted_this_round(&self, seat: Seat) -> bool {
        let i = seat.index().min(1);
        self.bluffs[i].is_some() || self.marks[i].is_some()
    }

    pub fn round(&self) -> u32 {
        self.round
    }
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }
    pub fn outcome(&self) -> Option<(Option<Seat>, Ending)> {
        self.outcome
    }
    /// The secret layout: for the umpire and tests, never for a view before the end.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
    pub fn rp(&self, seat: Seat) -> u32 {
        self.rp[seat.index()]
    }
    pub fn reserve(&self, seat: Seat) -> Millis {
        self.reserve[seat.index()]
    }
    pub fn known(&self, seat: Seat) -> &[Cell] {
        &self.known[seat.index()]
    }

    /// Moves every running deadline `ms` later (a pause, or the process was down):
    /// reserve time is counted from the phase's deadline, so it moves with it.
    fn shift(&mut self, ms: Millis) {
        self.deadline = self.deadline.saturating_add(ms);
        for r in &mut self.reveal {
            if let RevealState::Declared { until } = r {
                *until = until.saturating_add(ms);
            }
        }
    }

    /// Whether the seat still owes a submission in Bluffing or Claiming.
    fn owes(&self, seat: Seat) -> bool {
        let i = seat.index();
        match self.phase {
            PhaseName::Bluffing => self.bluffs[i].is_none(),
            PhaseName::Claiming => self.marks[i].is_none(),
            _ => false,
        }
    }

    /// When a seat that owes a submission runs out of reserve.
    fn out_of_time_at(&self, seat: Seat) -> Millis {
        self.deadline + self.reserve[seat.index()]
    }

    /// When a seat's Reveal time ends, while it may still act.
    fn reveal_until(&self, seat: Seat) -> Option<Millis> {
        match self.reveal[seat.index()] {
            RevealState::Pending | RevealState::Revealing => Some(self.deadline),
            RevealState::Declared { until } => Some(until),
            _ => None,
        }
    }

    /// The next moment something happens by itself (the runtime sends a
    /// [`Move::Tick`] then).
    pub fn next_deadline(&self) -> Option<Millis> {
        if self.is_over() {
            return None;
        }
        match self.phase {
            PhaseName::Bluffing | PhaseName::Claiming => SEATS
                .into_iter()
                .filter(|s| self.owes(*s))
                .map(|s| self.out_of_time_at(s))
                .min(),
            PhaseName::Reveal => SEATS.into_iter().filter_map(|s| self.reveal_until(s)).min(),
            PhaseName::Over => None,
        }
    }

    /// The state after one more event.
    pub fn fold(&mut self, event: &Event) -> Result<(), Misfit> {
        use EventKind::*;
        let at = event.at;
        let ix = |s: &Seat| -> Result<usize, Misfit> {
            (s.index() < 2)
                .then_some(s.index())
                .ok_or(Misfit::NoSuchSeat(s.0))
        };
        match &event.kind {
            Created { .. } => return Err(Misfit::CreatedAgain),
            PhaseBegan {
                round,
                phase,
                deadline,
            } => {
                self.phase = *phase;
                self.deadline = *deadline;
                if *phase == PhaseName::Bluffing {
                    self.round = *round;
                    for i in 0..2 {
                        if let Some(b) = self.bluffs[i].take() {
                            self.previous[i] = Some(b.subset);
                        }
                        self.marks[i] = None;
                        self.detected[i] = None;
                        self.reveal[i] = RevealState::Pending;
                        self.bought[i] = 0;
                    }
                }
                if *phase == PhaseName::Reveal {
                    self.barred = self.barring;
                    self.barring = [false; 2];
                }
            }
            Submitted { seat, reserve_used } => {
                let i = ix(seat)?;
                self.reserve[i] = self.reserve[i].saturating_sub(*reserve_used);
            }
            Bluffed {
                seat,
                subset,
                statements,
                truths,
                no_limit,
                smokescreen,
            } => {
                let i = ix(seat)?;
                if *no_limit {
                    self.items[i].mark(Item::NoLimit);
                }
                if smokescreen.is_some() {
                    self.items[i].mark(Item::Smokescreen);
                }
                self.bluffs[i] = Some(Bluff {
                    subset: subset.clone(),
                    statements: statements.clone(),
                    truths: truths.clone(),
                    no_limit: *no_limit,
                    smokescreen: *smokescreen,
                });
            }
            Shown { .. } => {}
            RevealsCounted { counts } => self.counted = Some(*counts),
            TruthTold { seat, gained, .. } | ClaimScored { seat, gained, .. } => {
                self.rp[ix(seat)?] += gained;
            }
            Detected {
                seat, statement, ..
            } => {
                let i = ix(seat)?;
                self.items[i].mark(Item::Detective);
                self.detected[i] = Some(*statement);
            }
            Marked { seat, marks } => self.marks[ix(seat)?] = Some(marks.clone()),
            Revealed { seat, tiles, cost } => {
                let i = ix(seat)?;
                self.rp[i] = self.rp[i].saturating_sub(*cost);
                self.known[i].extend(tiles.iter().map(|(c, _)| *c));
                self.known[i].sort();
                self.bought[i] += tiles.len() as u32;
                // Done once nothing more can be bought.
                let more = self.rp[i] >= self.setup.settings.reveal_cost
                    && self.known[i].len() < tiles::cells::TILES;
                self.reveal[i] = if more {
                    RevealState::Revealing
                } else {
                    RevealState::Done
                };
            }
            GuessDeclared { seat, until } => {
                self.reveal[ix(seat)?] = RevealState::Declared { until: *until }
            }
            Guessed { seat, layout } => {
                self.reveal[ix(seat)?] = RevealState::Guessed {
                    layout: *layout,
                    at,
                }
            }
            Passed { seat, .. } => self.reveal[ix(seat)?] = RevealState::Done,
            GuessWrong { seat, .. } => {
                let i = ix(seat)?;
                self.rp[i] = 0;
                self.barring[i] = true;
                self.reveal[i] = RevealState::Done;
            }
            Ended { winner, ending, .. } => {
                self.phase = PhaseName::Over;
                self.outcome = Some((*winner, *ending));
            }
        }
        Ok(())
    }
}
