//! The moves every Zendo mode that has them means the same way ([`ZendoMove`]):
//! choosing who starts, confirming or taking back a guess, ending a turn, a host's
//! disallowing. Each mode's move enum holds them as one untagged variant beside its
//! own moves, so a stored move reads and writes exactly as it did when each mode
//! spelled them out; who may make them, and what kind of turn move they are, is said
//! here once.

use super::turn::{GuessMove, TurnMove};
use crate::rules::{self, PlayerId, Role};
use serde::{Deserialize, Serialize};

/// A move every Zendo mode that has it means the same way. A mode without turns
/// (practice) or without a player who chooses who starts (Classic) refuses what it
/// lacks, saying so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ZendoMove {
    /// The player with the advantage names who starts (Duel, Triple).
    ChooseStarter { starter: PlayerId },
    /// Make the pending guess official.
    Confirm,
    /// Withdraw the pending guess; its ticket or stone comes back.
    TakeBack,
    /// No more guesses now: the turn passes.
    EndTurn,
    /// Host: refuse the pending (or official, unjudged) guess as contrived; its ticket
    /// or stone comes back.
    Disallow,
}

impl rules::Move for ZendoMove {
    fn role(&self) -> Role {
        match self {
            ZendoMove::Disallow => Role::Host,
            _ => Role::Player,
        }
    }

    fn describe(&self) -> &'static str {
        match self {
            ZendoMove::Disallow => "disallow a guess",
            _ => "play",
        }
    }
}

impl ZendoMove {
    /// The kind of turn move it is, for a turn's step to check (Duel, Classic); None
    /// for choosing who starts, which comes before any turn.
    pub(crate) fn turn_move(self) -> Option<TurnMove> {
        match self {
            ZendoMove::ChooseStarter { .. } => None,
            ZendoMove::Confirm | ZendoMove::TakeBack => Some(TurnMove::Confirm),
            ZendoMove::EndTurn => Some(TurnMove::Guess),
            ZendoMove::Disallow => Some(TurnMove::Disallow),
        }
    }

    /// What it does to the guess in play, as the shared guess events take it; None for
    /// choosing who starts and ending a turn.
    pub(crate) fn guess_move(self) -> Option<GuessMove<'static>> {
        match self {
            ZendoMove::Confirm => Some(GuessMove::Confirm),
            ZendoMove::TakeBack => Some(GuessMove::TakeBack),
            ZendoMove::Disallow => Some(GuessMove::Disallow),
            ZendoMove::ChooseStarter { .. } | ZendoMove::EndTurn => None,
        }
    }
}

/// Makes the shared moves moves and actions of a mode whose move enum holds them as
/// `Zendo(ZendoMove)` beside the umpire's `Verdict`, and says who may make each of its
/// moves: the shared ones as [`ZendoMove`] says, a verdict the umpire, the moves listed
/// after `anyone:` anyone (each with what a refusal calls it), the rest the players.
/// `shared_moves_in!(DuelMove, Action)` in the mode's own file.
macro_rules! shared_moves_in {
    ($mode:ident, $action:ty $(, anyone: $($anyone:pat => $what:literal),+)?) => {
        impl From<$crate::rules::zendo::ZendoMove> for $mode {
            fn from(m: $crate::rules::zendo::ZendoMove) -> $mode {
                $mode::Zendo(m)
            }
        }

        impl From<$crate::rules::zendo::ZendoMove> for $action {
            fn from(m: $crate::rules::zendo::ZendoMove) -> $action {
                $crate::rules::Action::Move($mode::Zendo(m))
            }
        }

        impl $crate::rules::Move for $mode {
            fn role(&self) -> $crate::rules::Role {
                match self {
                    $mode::Zendo(m) => $crate::rules::Move::role(m),
                    $mode::Verdict { .. } => $crate::rules::Role::Umpire,
                    $($($anyone)|+ => $crate::rules::Role::Anyone,)?
                    _ => $crate::rules::Role::Player,
                }
            }

            fn describe(&self) -> &'static str {
                match self {
                    $mode::Zendo(m) => $crate::rules::Move::describe(m),
                    $mode::Verdict { .. } => "give verdicts",
                    $($($anyone => $what,)+)?
                    _ => "play",
                }
            }
        }
    };
}
pub(crate) use shared_moves_in;

#[cfg(test)]
mod tests {
    use super::*;

    /// A host disallows; everything else is the players'.
    #[test]
    fn only_a_host_disallows() {
        use crate::rules::Move;
        for m in [
            ZendoMove::ChooseStarter {
                starter: PlayerId(1),
            },
            ZendoMove::Confirm,
            ZendoMove::TakeBack,
            ZendoMove::EndTurn,
        ] {
            assert_eq!(m.role(), Role::Player, "{m:?}");
        }
        assert_eq!(ZendoMove::Disallow.role(), Role::Host);
        assert_eq!(ZendoMove::Disallow.describe(), "disallow a guess");
    }

    /// What each shared move is to a turn's step, and to the guess in play.
    #[test]
    fn each_shared_move_is_one_kind_of_turn_move() {
        let starter = ZendoMove::ChooseStarter {
            starter: PlayerId(1),
        };
        assert_eq!(starter.turn_move(), None);
        assert_eq!(ZendoMove::Confirm.turn_move(), Some(TurnMove::Confirm));
        assert_eq!(ZendoMove::TakeBack.turn_move(), Some(TurnMove::Confirm));
        assert_eq!(ZendoMove::EndTurn.turn_move(), Some(TurnMove::Guess));
        assert_eq!(ZendoMove::Disallow.turn_move(), Some(TurnMove::Disallow));
        assert!(starter.guess_move().is_none() && ZendoMove::EndTurn.guess_move().is_none());
        assert!(matches!(
            ZendoMove::Confirm.guess_move(),
            Some(GuessMove::Confirm)
        ));
        assert!(matches!(
            ZendoMove::TakeBack.guess_move(),
            Some(GuessMove::TakeBack)
        ));
        assert!(matches!(
            ZendoMove::Disallow.guess_move(),
            Some(GuessMove::Disallow)
        ));
    }
}
